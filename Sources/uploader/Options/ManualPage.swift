import ArgumentParser
/// The man page, `uploader(1)`, in man(7) markup (`uploader
/// --generate-manual`): the synopsis forms, the options in the docs'
/// groups (``CommandReference``), the items, kinds of upload, environment,
/// files, exit statuses (``ExitStatus``, once) and examples. The copy in
/// docs/uploader.1 is what this makes; a test holds the two equal.
enum ManualPage {
    /// The environment variables the uploader reads, and what for.
    static let environment: [(names: String, meaning: String)] = [
        ("SSL_CERT_FILE, SSL_CERT_DIR", "The TLS trust store: a PEM bundle and an OpenSSL hashed directory, both trusted when both are set."),
        ("http_proxy, https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY", "Proxies, as curl reads them."),
        ("no_proxy, NO_PROXY", "Hosts reached without a proxy: names, .domains, addresses, CIDR blocks, or *."),
        ("NETRC", "The netrc file --netrc reads, instead of ~/.netrc."),
        ("AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN", "s3:// credentials."),
        ("AWS_PROFILE, AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE", "The AWS profile and its files."),
        ("AWS_REGION, AWS_DEFAULT_REGION", "The signing region."),
        ("AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL", "An S3-compatible store."),
        ("AWS_CA_BUNDLE", "s3://: the CA bundle, in SSL_CERT_FILE's place (else the profile's ca_bundle)."),
        ("XDG_STATE_HOME, HOME", "Where resume state is kept."),
        ("XDG_CONFIG_HOME", "Where named sessions are kept (--session NAME), else ~/.config."),
        ("TMPDIR", "Where standard input past 1 MiB is kept (an unnamed file) to be sent with its length."),
        ("NO_COLOR, TERM", "NO_COLOR set, or TERM=dumb: no colour unless --pretty asks; TERM=dumb: no progress bar unless asked."),
    ]

    /// The files the uploader reads or keeps.
    static let files: [(path: String, meaning: String)] = [
        ("~/.netrc", "Logins and passwords for --netrc ($NETRC instead, when set)."),
        ("~/.aws/credentials, ~/.aws/config", "s3:// keys, region, endpoint and CA bundle, as the AWS CLI reads them."),
        ("$XDG_STATE_HOME/uploader, else ~/.local/state/uploader", "Resume state of unfinished resumable and s3:// uploads (--state-dir instead); never a credential."),
        ("$XDG_CONFIG_HOME/uploader/sessions/HOST_PORT/NAME.json, else under ~/.config", "Sessions (--session NAME): headers, credentials and cookies, 0600; secrets, as ~/.netrc."),
    ]

    /// The page.
    static var page: String {
        var lines = [
            #".TH UPLOADER 1 "" "uploader \#(Uploader.configuration.version)" "User Commands""#,
            ".SH NAME",
            "uploader \\- " + escaped(String(Uploader.configuration.abstract.lowercasedFirst.dropLast(Uploader.configuration.abstract.hasSuffix(".") ? 1 : 0))),
            ".SH SYNOPSIS",
        ]
        for form in Uploader.synopsis {
            lines += [".B uploader", escaped(String(form.dropFirst("uploader ".count))), ".br"]
        }
        lines.removeLast()
        lines += [".SH OPTIONS"]
        for section in CommandReference().sections {
            lines.append(".SS " + escaped(section.title))
            for entry in section.entries {
                lines.append(".TP")
                lines.append(".B " + escaped(entry.names.joined(separator: ", ")) + (entry.valueName.map { " \\fI" + escaped($0) + "\\fR" } ?? ""))
                lines.append(escaped(entry.abstract))
            }
        }
        for (title, text) in [("REQUEST ITEMS", HelpText.items), ("OBJECT STORES", HelpText.objectStores), ("KINDS OF UPLOAD", HelpText.kinds), ("RESPONSE", HelpText.response)] {
            lines += [".SH " + title, ".nf"] + body(of: text).map(escaped) + [".fi"]
        }
        lines.append(".SH ENVIRONMENT")
        for variable in environment { lines += [".TP", ".B " + escaped(variable.names), escaped(variable.meaning)] }
        lines.append(".SH FILES")
        for file in files { lines += [".TP", ".I " + escaped(file.path), escaped(file.meaning)] }
        lines.append(".SH EXIT STATUS")
        for status in ExitStatus.allCases { lines += [".TP", ".B \(status.rawValue)", escaped(status.meaning)] }
        lines += [".SH EXAMPLES", ".nf"] + body(of: HelpText.examples).map(escaped) + [".fi"]
        lines += [".SH SEE ALSO", "curl(1), http(1), aws(1)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A help section's lines without its heading line, indentation kept.
    private static func body(of text: String) -> [String] {
        Array(text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init))
    }

    /// `text` safe as man(7) text: backslashes and dashes escaped, and a
    /// line that starts with `.` or `'` kept from being read as a request.
    static func escaped(_ text: String) -> String {
        var result = text.replacingAll("\\", with: "\\\\").replacingAll("-", with: "\\-")
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}

private extension String {
    /// The string with every `target` replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }

    /// The string with its first letter in lower case ("Upload files" → "upload files").
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
