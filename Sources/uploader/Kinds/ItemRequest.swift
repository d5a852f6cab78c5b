import Foundation
import HTTPBody
import RequestBuilder
import UploaderItems

/// The request the command line's items describe, for the kinds that send
/// one (plain, `--resumable`, `--tus`).
enum ItemRequest {
    /// Checks every input and builds the request; nothing has been sent yet.
    /// `resumedBoundary` is a resumed upload's saved one, used unless
    /// `--boundary` is given. Piped input is the body only when
    /// `takesPipedInput`: a resumable upload's body must be there to resume.
    static func prepare(
        _ commandLine: consuming CommandLineSplit, options: UploaderOptions, resumedBoundary: String? = nil, takesPipedInput: Bool = true
    ) throws(InputError) -> (PreparedRequest, Invocation) {
        // The items are parsed into their own values; the command line's
        // arguments go before the files are opened.
        let invocation = try Invocation(consume commandLine)
        var assembler = RequestAssembler(
            invocation: invocation, explicitKind: options.explicitBodyKind, data: options.data,
            gzip: options.gzip, boundary: options.boundary, timeout: options.requestTimeout
        )
        assembler.resumedBoundary = resumedBoundary
        assembler.recursive = options.recursive
        assembler.ignoresStandardInput = options.ignoreStdin || !takesPipedInput
        assembler.streamsStandardInput = options.chunked
        assembler.asksForCompression = options.compressed
        // Asked for only when no Authorization item wins over them (the
        // prompt of -a USER included).
        let hasAuthorizationItem = invocation.items.contains { item in
            switch item {
            case .header(let name, let value): name.lowercased() == "authorization" && !value.isEmpty
            case .fromFile(.header, let name, _): name.lowercased() == "authorization"  // Authorization:@file
            default: false
            }
        }
        if !hasAuthorizationItem {
            let credentials = CommandCredentials(options)
            assembler.authorization = try credentials.explicitAuthorization()
            if invocation.credentials == nil, let host = invocation.url.host {
                assembler.netrcCredentials = try credentials.netrcCredentials(forHost: host)
            }
        }
        if !options.ignoreStdin, !assembler.readsStandardInput, StandardInputContent.hasWaitingBytes {
            // Piped bytes are never dropped without a word.
            Diagnostics.report("warning: standard input is not read: the request's body comes from its items (--ignore-stdin says so and silences this)")
        }
        try CookieRun.start(options, assembler: &assembler)
        let request = try assembler.prepare()
        // Every part is typed: libmagic's database (up to 8 MB of pages once
        // it has looked at bytes no signature names) goes now, before the
        // connection's code and buffers need memory.
        MagicDatabase.releaseSharedIdleHandles()
        return (request, invocation)
    }
}
