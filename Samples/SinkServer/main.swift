// An HTTP server on 127.0.0.1 that counts and discards request bodies, for
// measuring uploads (ours and curl's) against the same receiver.
//
//     swift run -c release sink-server 8080
import Foundation
import TestSupport

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
let server = try await TestHTTPServer.start(recordLimit: 0, port: port)
FileHandle.standardOutput.write(Data("listening on 127.0.0.1:\(server.port)\n".utf8))
try await Task.sleep(for: .seconds(24 * 3600))
