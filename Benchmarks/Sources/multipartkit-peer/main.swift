// The peer for compare.sh: multipart-kit 4.7.1 encoding N small text fields,
// the whole body written to standard output.
//
//     multipartkit-peer fields 100000 > /dev/null
import Foundation
import KitWorkloads

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, arguments[0] == "fields", let count = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: multipartkit-peer fields COUNT\n".utf8))
    exit(64)
}
do {
    let body = try KitWorkloads.encode(KitWorkloads.fields(count: count))
    FileHandle.standardOutput.write(Data(body.utf8))
} catch {
    FileHandle.standardError.write(Data("multipartkit-peer: \(error)\n".utf8))
    exit(1)
}
