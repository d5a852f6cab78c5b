/// curl's and HTTPie's options that mean something else or nothing here,
/// each with the uploader's spelling of what its user wants: an unknown
/// option that a peer knows is answered with that, not with "Unknown option".
enum PeerSpelling {
    /// The advice for `option` (as typed, a value after `=` aside), if a
    /// peer has it.
    static func advice(for option: String) -> String? {
        let name = option.split(separator: "=", maxSplits: 1).first.map(String.init) ?? option
        return table[name]
    }

    /// The first option of `options` a peer has, with its advice.
    static func firstAdvice(in options: [String]) -> String? {
        for option in options {
            if let advice = advice(for: option) { return "\(option.split(separator: "=").first ?? ""): \(advice)" }
        }
        return nil
    }

    private static let table: [String: String] = [
        "-X": "give the method first: uploader PUT URL",
        "--request": "give the method first: uploader PUT URL",
        "-d": "a raw body is --data (--data @file, --data -, --data 'text')",
        "--data-binary": "a raw body is --data (--data @file, --data -, --data 'text')",
        "--data-raw": "a raw body is --data (--data @file, --data -, --data 'text')",
        "--data-ascii": "a raw body is --data (--data @file, --data -, --data 'text')",
        "--data-urlencode": "form fields are name=value items with --form",
        "-u": "credentials are -a user:password (or -a user to be asked)",
        "--user": "credentials are -a user:password (or -a user to be asked)",
        "-T": "upload a file as the body with: uploader PUT URL --data @FILE",
        "--upload-file": "upload a file as the body with: uploader PUT URL --data @FILE",
        "-I": "ask for the head only with: uploader HEAD URL",
        "--head": "ask for the head only with: uploader HEAD URL",
        "-O": "name the output file with -o FILE",
        "--remote-name": "name the output file with -o FILE",
        "-s": "no progress bar is drawn unless standard error is a terminal; --no-progress turns it off",
        "--silent": "no progress bar is drawn unless standard error is a terminal; --no-progress turns it off",
        "-f": "an error status already exits 4 (4xx) or 5 (5xx)",
        "--fail": "an error status already exits 4 (4xx) or 5 (5xx)",
        "--location": "follow redirects with -L/--follow",
        "--url": "give the URL as the first argument (after the method, if any)",
    ]
}
