import FuzzSupport
@testable import ObjectStorage

/// Feeds `~/.aws/config` and `~/.aws/credentials` text, as another tool, an
/// editor or a truncated write may leave it, to `AWSConfigFile`, with a
/// secret key line planted among the lines.
///
/// Invariants: nothing traps; an error never holds the planted secret
/// (errors name the file and line, never a value); the sections read,
/// written back as `RawConfigParser` text (continuation lines indented,
/// sub-sections as `key =` then `k = v` lines), read again to the same
/// sections; profile and service names come from their sections.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAWSConfigFile(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let position = Int(input.byte())
    let secret = "PLANTEDsecret7Qk2"
    var lines = input.rest().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.insert("aws_secret_access_key = \(secret)", at: min(position, lines.count))
    let text = lines.joined(separator: "\n")
    let file: AWSConfigFile
    do {
        file = try AWSConfigFile(parsing: text, path: "/home/u/.aws/credentials")
    } catch {
        fuzzCheck(!error.description.contains(secret), "the error \(error.description.debugDescription) shows the secret")
        return 0
    }
    let written = write(file.sections)
    do {
        let again = try AWSConfigFile(parsing: written, path: "written")
        fuzzCheck(again.sections == file.sections, "written back as \(written.debugDescription), it reads as \(again.sections), not \(file.sections)")
    } catch {
        fuzzCheck(false, "written back as \(written.debugDescription), it does not read: \(error)")
    }
    for (name, _) in file.configProfiles {
        fuzzCheck(file.sections[name] != nil || file.sections.keys.contains { $0.hasPrefix("profile") && $0.contains(name) }, "profile \(name.debugDescription) from no section")
    }
    _ = file.serviceSections
    return 0
}

/// `sections` as `RawConfigParser` text.
private func write(_ sections: [String: [String: AWSConfigFile.Value]]) -> String {
    var text = ""
    for (name, values) in sections {
        text += "[\(name)]\n"
        for (key, value) in values {
            switch value {
            case .text(let value):
                // Line ends inside a value were continuation lines.
                let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
                text += "\(key) = \(lines[0])\n"
                for line in lines.dropFirst() { text += line.isEmpty ? "\n" : "  \(line)\n" }
            case .section(let entries):
                text += "\(key) =\n"
                for (subkey, subvalue) in entries { text += "  \(subkey) = \(subvalue)\n" }
            }
        }
    }
    return text
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzAWSConfigFile_main")
public func fuzzAWSConfigFileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzAWSConfigFile)
}
