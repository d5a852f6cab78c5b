/// The shell completion scripts (`uploader --generate-completion-script
/// bash|zsh|fish`), made from the options × kinds table: every option by
/// its spellings, the values each takes (file names wherever a path is
/// taken, `--pretty`'s styles), and file names in items after `@`
/// (`name@path`), `-F name=@path` and `-F name=<path`, and for a plain
/// argument (an `s3://` upload's FILE). There is no subcommand to offer.
enum CompletionScript {
    /// What an option's value completes to.
    enum Value: Equatable {
        /// Nothing: the value is the user's to type.
        case none
        /// A file name.
        case file
        /// A directory name.
        case directory
        /// One of these words.
        case words([String])
        /// `@path` (`--data @path`): a file name after `@`.
        case fileAfterAt
        /// curl's `-F`: a file name after `name=@` or `name=<`.
        case formPart
    }

    /// What each value option's value completes to, by its long name;
    /// options not named here take a value typed by hand.
    static let values: [String: Value] = [
        "--output": .file, "--cacert": .file, "--cert": .file, "--key": .file, "--presigned-post": .file,
        "--netrc-file": .file, "--cookie": .file, "--cookie-jar": .file, "--session": .file, "--session-read-only": .file,
        "--state-dir": .directory, "--pretty": .words(["all", "format", "colors", "none"]), "--print": .words(["HBhb", "Hh", "hb", "h", "b"]),
        "--data": .fileAfterAt, "--form-part": .formPart,
    ]

    /// The script for `shell`, or `nil` for a shell it does not know.
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    private static func spellings(where value: (Value) -> Bool) -> [String] {
        OptionRule.table.filter { $0.takesValue && value(values[$0.longName] ?? .none) }.flatMap(\.names)
    }

    private static var allSpellings: String { (OptionRule.table.flatMap(\.names) + ["--help", "-h", "--version"]).joined(separator: " ") }

    private static var bash: String {
        let files = spellings { $0 == .file }.joined(separator: "|")
        let typed = spellings { $0 == .none }.joined(separator: "|")
        return """
        # bash completion for uploader: options, their values, and file names
        # wherever a path is taken (name@path items, -F name=@path, --data @path).
        _uploader_paths() {
            # $1: what comes before the path in the word; $2: the path typed so far.
            local path
            while IFS= read -r path; do
                [[ -d "$path" ]] && path+=/
                _uploader_candidates+=("$1$path")
            done < <(compgen -f -- "$2")
        }
        _uploader() {
            local line="${COMP_LINE:0:COMP_POINT}"
            local cur="${line##*[[:space:]]}"
            local before="${line%"$cur"}"
            before="${before%"${before##*[![:space:]]}"}"
            local prev="${before##*[[:space:]]}"
            local -a _uploader_candidates=()
            case "$prev" in
                \(files)) _uploader_paths "" "$cur" ;;
                --state-dir) while IFS= read -r d; do _uploader_candidates+=("$d/"); done < <(compgen -d -- "$cur") ;;
                --pretty) _uploader_candidates=($(compgen -W "all format colors none" -- "$cur")) ;;
                --data) [[ "$cur" == @* ]] && _uploader_paths "@" "${cur#@}" ;;
                -F|--form-part) [[ "$cur" =~ ^([^=]*=[@<])(.*)$ ]] && _uploader_paths "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" ;;
                \(typed)) ;;
                *)
                    case "$cur" in
                        -*) _uploader_candidates=($(compgen -W "\(allSpellings)" -- "$cur")) ;;
                        *@*) _uploader_paths "${cur%%@*}@" "${cur#*@}" ;;
                        *) _uploader_paths "" "$cur" ;;
                    esac
                    ;;
            esac
            # Bash replaces only the part of the word after its last break
            # character (=, : among them): the candidates lose what precedes
            # it. An @ before that part is replaced with it (readline keeps
            # it as a prefix of the word), so the candidates keep it.
            local word="${COMP_WORDS[COMP_CWORD]}"
            local strip="${cur%"$word"}"
            [[ "$cur" == *"$word" ]] || strip=""
            strip="${strip%@}"
            COMPREPLY=("${_uploader_candidates[@]#"$strip"}")
            [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == */ ]] && compopt -o nospace
            return 0
        }
        complete -F _uploader uploader

        """
    }

    private static var zsh: String {
        let files = spellings { $0 == .file }.joined(separator: "|")
        let typed = spellings { $0 == .none }.joined(separator: "|")
        return """
        #compdef uploader
        # zsh completion for uploader: options, their values, and file names
        # wherever a path is taken (name@path items, -F name=@path, --data @path).
        _uploader() {
            local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
            case $prev in
                \(files)) _files; return ;;
                --state-dir) _files -/; return ;;
                --pretty) compadd all format colors none; return ;;
                --data) compset -P '@' && _files; return ;;
                -F|--form-part) compset -P '*=[@<]' && _files; return ;;
                \(typed)) return ;;
            esac
            case $cur in
                -*) compadd -- \(allSpellings) ;;
                *@*) compset -P '*@'; _files ;;
                *) _files ;;
            esac
        }
        if [ "$funcstack[1]" = "_uploader" ]; then
            _uploader "$@"
        else
            compdef _uploader uploader
        fi

        """
    }

    private static var fish: String {
        var lines = [
            "# fish completion for uploader: options, their values, and file names",
            "# wherever a path is taken (name@path items, -F name=@path, --data @path).",
            "function __uploader_paths --description 'file names after the word\\'s @, =@ or =<'",
            "    set -l token (commandline -ct)",
            "    set -l prefix (string match -r '^(?:[^=]*=[@<]|[^@]*@)' -- $token)",
            "    set -l path (string sub -s (math (string length -- \"$prefix\") + 1) -- $token)",
            "    for candidate in (__fish_complete_path $path)",
            "        echo $prefix$candidate",
            "    end",
            "end",
            "complete -c uploader -f",
            "complete -c uploader -n 'not string match -q -- \"-*\" (commandline -ct)' -a '(__uploader_paths)'",
        ]
        for rule in OptionRule.table {
            var line = "complete -c uploader"
            for name in rule.names {
                line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
            }
            if rule.takesValue {
                switch values[rule.longName] ?? .none {
                case .file: line += " -r -F"
                case .directory: line += " -r -a '(__fish_complete_directories)'"
                case .words(let words): line += " -x -a '\(words.joined(separator: " "))'"
                case .fileAfterAt, .formPart: line += " -x -a '(__uploader_paths)'"
                case .none: line += " -x"
                }
            }
            lines.append(line)
        }
        lines.append("complete -c uploader -s h -l help")
        lines.append("complete -c uploader -l version")
        return lines.joined(separator: "\n") + "\n"
    }
}
