import ArgumentParser
import Testing
@testable import uploader

/// `main()` runs with ``UploaderOptions/defaults`` without asking the parser
/// when no option is given, so the two must agree, and every option the
/// parser reads must reach the options the command runs with.
@Suite struct UploaderOptionsTests {
    @Test func defaultsAreWhatTheParserGivesForNoOptions() throws {
        #expect(values(try Uploader.parsedOptions([])) == values(.defaults))
    }

    @Test func everyOptionReachesTheOptions() throws {
        var plain = UploaderOptions.defaults
        (plain.multipart, plain.gzip, plain.boundary, plain.dryRun, plain.output) = (true, true, "b", true, "out")
        (plain.timeout, plain.retry, plain.progress, plain.verbose, plain.printResponseHeaders) = (2.5, 3, false, true, true)
        #expect(values(try Uploader.parsedOptions([
            "--multipart", "--gzip", "--boundary=b", "--dry-run", "--output=out",
            "--timeout=2.5", "--retry=3", "--no-progress", "--verbose", "--print-response-headers",
        ])) == values(plain))

        var resumable = UploaderOptions.defaults
        (resumable.data, resumable.resumable, resumable.chunkSize) = ("@body.bin", true, "8M")
        (resumable.resumeFrom, resumable.stateDir, resumable.progress) = ("http://h/u", "state", true)
        #expect(values(try Uploader.parsedOptions([
            "--data=@body.bin", "--resumable", "--chunk-size=8M", "--resume-from=http://h/u", "--state-dir=state", "--progress",
        ])) == values(resumable))

        var store = UploaderOptions.defaults
        (store.endpointURL, store.region, store.partSize) = ("http://127.0.0.1:9000", "eu-west-1", "8M")
        (store.concurrency, store.multipartThreshold, store.presignedPost) = (2, "16M", "form.json")
        #expect(values(try Uploader.parsedOptions([
            "--endpoint-url=http://127.0.0.1:9000", "--region=eu-west-1", "--part-size=8M", "--concurrency=2",
            "--multipart-threshold=16M", "--presigned-post=form.json",
        ])) == values(store))

        var redirects = UploaderOptions.defaults
        (redirects.follow, redirects.maxRedirects) = (true, 7)
        #expect(values(try Uploader.parsedOptions(["-L", "--max-redirects=7"])) == values(redirects))
        #expect(values(try Uploader.parsedOptions(["--follow", "--max-redirects", "7"])) == values(redirects))

        var network = UploaderOptions.defaults
        (network.profile, network.cacert, network.insecure, network.cert, network.key) = ("p", "ca.pem", true, "c.pem", "k.pem")
        (network.proxy, network.noproxy, network.auth, network.netrc) = ("http://p:3128", "*", "u:p", true)
        #expect(values(try Uploader.parsedOptions([
            "--profile=p", "--cacert=ca.pem", "-k", "--cert=c.pem", "--key=k.pem",
            "--proxy=http://p:3128", "--noproxy=*", "-a", "u:p", "--netrc",
        ])) == values(network))
        var bearer = UploaderOptions.defaults
        (bearer.bearer, bearer.insecure) = ("t", true)
        #expect(values(try Uploader.parsedOptions(["--bearer=t", "--insecure"])) == values(bearer))

        var json = UploaderOptions.defaults
        (json.json, json.tus) = (true, true)
        #expect(values(try Uploader.parsedOptions(["--json", "--tus"])) == values(json))
        var form = UploaderOptions.defaults
        form.form = true
        #expect(values(try Uploader.parsedOptions(["--form"])) == values(form))
        var output = UploaderOptions.defaults
        (output.recursive, output.pretty) = (true, .format)
        #expect(values(try Uploader.parsedOptions(["-r", "--pretty=format"])) == values(output))
    }

    /// Every option that takes a value, as the parser itself tells (it asks
    /// for one when the name comes last), is handed on with its value, even
    /// one that starts with a dash; every flag is handed on as it is. The
    /// names come from the declaration, so a new option is covered unasked.
    @Test func everyDeclaredOptionIsSplitAsTheParserReadsIt() throws {
        let arguments = OptionNames.arguments
        let names = arguments.flatMap { ($0.names ?? []).map(\.spelling) }
        #expect(names.contains("--timeout") && names.contains("-o") && names.contains("--verbose"), "\(names)")
        var checked = 0
        for name in names where name != "--help" && name != "-h" && name != "--version" {
            let takesAValue = Self.parserMessage([name]).contains("Missing value")
            let split = CommandLineSplit(["URL", name, "-5"])
            switch name {
            case "-H", "--header":
                #expect(split.headers == ["-5"] && split.options.isEmpty, "\(name)")
            case "-F", "--form-part":
                #expect(split.entries == [.positional("URL"), .formPart("-5")], "\(name)")
            default:
                if takesAValue {
                    #expect(split.entries == [.positional("URL")], "\(name)")
                    #expect(split.options.count == 1 && split.options.first?.hasSuffix("=-5") == true, "\(name): \(split.options)")
                    // The parser reads what the split hands on as this option with its value.
                    let message = Self.parserMessage(split.options)
                    #expect(!message.contains("Missing value") && !message.contains("Unknown option") && !message.contains("Unexpected"), "\(name): \(message)")
                } else {
                    #expect(split.options == [name, "-5"] && split.entries == [.positional("URL")], "\(name): \(split.options)")
                }
            }
            checked += 1
        }
        #expect(checked >= 30, "\(checked) names")
    }

    /// The options × kinds table has one row for every declared option,
    /// with the declaration's spellings and whether it takes a value: a new
    /// option without its row fails here.
    @Test func theTableHasARowForEveryDeclaredOption() throws {
        let declared = OptionNames.arguments.filter { argument in
            !(argument.names ?? []).contains { $0.spelling == "--help" || $0.spelling == "--version" }
        }
        var rows = OptionRule.table.map { Set($0.names) }
        for argument in declared {
            let spellings = Set((argument.names ?? []).map(\.spelling))
            let matching = OptionRule.table.filter { Set($0.names).isSuperset(of: spellings) }
            #expect(matching.count == 1, "\(spellings): \(matching.map(\.option))")
            if let rule = matching.first {
                #expect(rule.takesValue == (argument.kind == "option"), "\(rule.option)")
            }
            rows.removeAll { $0.isSuperset(of: spellings) }
        }
        #expect(rows.isEmpty, "rows for no declared option: \(rows)")
    }

    /// `main()` sets the options from the table when it can: for every
    /// row, alone and beside others, the result is the parser's, and what
    /// the parser refuses (a bad value, a contradiction, a bundle of short
    /// flags, an option given twice) is left to the parser.
    @Test func theTableSetsEveryOptionAsTheParserDoes() throws {
        // A value each option's range takes.
        let samples: [String: String] = [
            "--timeout": "2.5", "--retry": "3", "--retry-max-time": "9", "--chunk-size": "8M", "--part-size": "8M",
            "--concurrency": "2", "--multipart-threshold": "16M", "--max-redirects": "7", "--print": "hb",
            "--pretty": "format", "--boundary": "b0undary", "--resume-from": "http://h/u",
        ]
        var assigned = 0
        for rule in OptionRule.table where rule.property != nil {
            for name in rule.names {
                let argument = rule.takesValue ? "\(rule.longName)=\(samples[rule.longName] ?? "x")" : name
                let others = ["-v", "--no-progress"].filter { !rule.names.contains($0) }
                for arguments in [[argument]] + others.map({ [argument, $0] }) + others.map({ [$0, argument] }) {
                    let parsed = try? Uploader.parsedOptions(arguments)
                    let fromTable = OptionRule.options(assigning: arguments)
                    // What the parser takes, the table sets, and the same way.
                    #expect(fromTable.map(values) == parsed.map(values), "\(arguments)")
                    assigned += fromTable == nil ? 0 : 1
                }
            }
        }
        #expect(assigned >= 200, "\(assigned)")
        #expect(OptionRule.options(assigning: []).map(values) == values(.defaults))
        for leftToTheParser in [
            ["--timeout=soon"], ["--timeout=-1"], ["--retry=1000"], ["--pretty=loud"], ["--json", "--form"],
            ["-vk"], ["--verbose", "-v"], ["--progress", "--no-progress"], ["--timeout=1", "--timeout=2"],
            ["--version"], ["--unknown"], ["--verbose=yes"], ["--timeout"], ["--print=Z"],
        ] {
            #expect(OptionRule.options(assigning: leftToTheParser) == nil, "\(leftToTheParser)")
        }
    }

    /// What the parser says of `arguments`, or "" when it takes them.
    private static func parserMessage(_ arguments: [String]) -> String {
        do {
            _ = try Uploader.parsedOptions(arguments)
            return ""
        } catch {
            return Uploader.message(for: error)
        }
    }
}

/// Every option's value by property name: the options' property wrappers
/// are not `Equatable`, and a property ``UploaderOptions/defaults`` forgot
/// to set reads `*definition*` here instead of a value.
private func values(_ options: UploaderOptions) -> [String] {
    Mirror(reflecting: options).children.map { "\($0.label ?? "?")=\($0.value)" }
}
