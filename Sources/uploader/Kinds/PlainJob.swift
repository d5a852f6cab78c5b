import HTTPBody
import RequestBuilder
import UploaderItems

/// `uploader [METHOD] URL [ITEM ...]`: the one request the items describe.
struct PlainJob: UploadJob {
    let exchange: OneRequest

    init(options: UploaderOptions, commandLine: consuming CommandLineSplit, network: any HTTPTransport) throws(InputError) {
        // Handed on: freed once its items are parsed, before the files are sniffed.
        let (request, invocation) = try ItemRequest.prepare(consume commandLine, options: options)
        // The files a directory part sends (-r) are inputs too.
        let bodyFiles = options.recursive ? (request.body?.filesRead ?? []).map { RawArgument.decode($0.location.bytes) } : []
        exchange = try OneRequest(request, inputPaths: invocation.inputPaths + options.dataPath + bodyFiles, options: options, network: network)
    }

    func dryRun() async -> ExitStatus { await exchange.dryRun() }

    func run() async -> ExitStatus { await exchange.run() }
}
