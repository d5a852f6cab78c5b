// A test server for issue #13's IETF resumable-upload client: swift-nio-extras'
// `HTTPResumableUploadHandler` in front of a handler that stores each logical
// upload and answers its final request with the sha256 and size it received.
//
//     swift run resumable-upload-server /tmp/uploads
//     listening 127.0.0.1:40123
//
// It lives under Tests/ and is no product: swift-nio-extras' resumable-upload
// module must never reach a library target a user depends on.
import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOResumableUpload

@main
struct ResumableUploadServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resumable-upload-server",
        abstract: "An IETF resumable-upload server (interop versions 3, 5 and 6) for tests."
    )

    @Argument(help: "The folder that receives one folder per completed upload.")
    var storage: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(help: """
        Put in front of each resumption path in `Location`. Empty (the default) \
        gives a relative reference, which a client resolves against its request's \
        URL, so resumptions go wherever the creation went, through a proxy too.
        """)
    var origin = ""

    @Option(help: "Seconds an interrupted upload waits for its resumption.")
    var resumptionTimeout: Int64 = 3600

    @Flag(help: "Exit when standard input reaches its end (a test launcher's pipe closing).")
    var exitOnStdinEOF = false

    func run() async throws {
        let store = try UploadStore(directory: URL(filePath: storage, directoryHint: .isDirectory))
        // One context for every connection: a resumption may arrive on any of them.
        let uploads = HTTPResumableUploadContext(origin: origin, timeout: .seconds(resumptionTimeout))
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    // A new store handler for each logical upload; the `handlers:`
                    // initializer would share one instance among all of them.
                    try pipeline.addHandler(HTTPResumableUploadHandler(context: uploads) { uploadChannel in
                        try? uploadChannel.pipeline.syncOperations.addHandler(UploadStoreHandler(store: store))
                    })
                }
            }
            .bind(host: host, port: port)
            .get()
        guard let boundPort = server.localAddress?.port else {
            try? await server.close()
            throw ValidationError("The server bound no port.")
        }
        // The first line is the launchers' contract: they read the port from it.
        FileHandle.standardOutput.write(Data("listening \(host):\(boundPort)\n".utf8))

        let reason = await ShutdownSignal.wait(includingStdinEOF: exitOnStdinEOF)
        FileHandle.standardError.write(Data("resumable-upload-server: stopping (\(reason))\n".utf8))
        try? await server.close()
    }
}
