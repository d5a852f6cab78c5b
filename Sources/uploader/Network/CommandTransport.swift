import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import NIOCore
import NIOPosix
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import Synchronization
import UploaderItems

/// The one place the command line and the environment become the network's
/// settings (TLS trust, client certificates, proxies) and the transport
/// every kind of upload sends through.
enum CommandTransport {
    /// The trust roots, verification and client identity: `--cacert` over
    /// `SSL_CERT_FILE`/`SSL_CERT_DIR` over the system's store, `-k`, and
    /// `--cert`/`--key`. An object store's CA bundle (`AWS_CA_BUNDLE`, a
    /// profile's `ca_bundle`) takes `SSL_CERT_FILE`'s place, as boto3 reads it.
    static func tlsSettings(_ options: UploaderOptions, environment: [String: String], objectStoreBundle: String? = nil) throws(InputError) -> TLSSettings {
        var tls = TLSSettings.fromEnvironment(environment)
        if let objectStoreBundle {
            let directory = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            tls.trustRoots = .openSSLLocations(file: objectStoreBundle, directory: directory)
        }
        if let cacert = options.cacert { tls.trustRoots = .pemFile(cacert) }
        tls.verifiesServer = !options.insecure
        if let cert = options.cert {
            tls.clientIdentity = .init(certificateFile: cert, keyFile: options.key)
        } else if options.key != nil {
            throw InputError(.conflictingInput, "--key needs --cert: give the client certificate's file too")
        }
        return tls
    }

    /// The proxies: `--proxy` for every scheme, else the environment as curl
    /// reads it; `--noproxy` replaces `no_proxy`/`NO_PROXY`.
    static func proxySettings(_ options: UploaderOptions, environment: [String: String]) throws(InputError) -> ProxySettings {
        var proxies: ProxySettings
        do {
            if let proxy = options.proxy {
                let server: ProxyServer
                do {
                    server = try ProxyServer(url: proxy)
                } catch let error as RequestError {
                    throw RequestError.invalidRequest("--proxy: \(error.description)")
                }
                proxies = .all(server, except: try ProxySettings.fromEnvironment(environment).noProxy)
            } else {
                proxies = try ProxySettings.fromEnvironment(environment)
            }
        } catch {
            throw InputError(.invalidRequest, (error as? RequestError)?.description ?? "\(error)")
        }
        if let noproxy = options.noproxy { proxies.noProxy = NoProxyList(noproxy) }
        return proxies
    }

    /// The transport every kind of upload sends through, made from the
    /// settings above. Every file they name is read now, so an unreadable
    /// certificate, an encrypted key or a key that does not match is bad
    /// input (exit 2) before anything is sent. With no option of them and
    /// no proxy in play (the environment's trust settings are the process
    /// client's too), one request at a time, and for a dry run, it is the
    /// process's one client, started while the request is prepared
    /// (``processClient``); any other gets a client of its own, on the same
    /// one event loop. `-v` wraps it (``VerboseTransport``).
    static func make(
        _ options: UploaderOptions,
        environment: [String: String] = ProcessEnvironment.variables,
        concurrentRequests: Int = 1,
        objectStoreBundle: String? = nil
    ) throws(InputError) -> any HTTPTransport {
        let tls = try tlsSettings(options, environment: environment, objectStoreBundle: objectStoreBundle)
        let proxies = try proxySettings(options, environment: environment)
        let base: any HTTPTransport
        // A dry run connects nowhere: its clients (and their threads) are not made.
        if options.dryRun {
            base = SharedClientTransport()
        } else if concurrentRequests <= 1, tls == TLSSettings.fromEnvironment(environment), proxies.isDirect {
            if case .failure(let problem) = processClient { throw problem }
            base = SharedClientTransport()
        } else {
            do {
                let transport = try AsyncHTTPClientTransport(tls: tls, proxies: proxies, eventLoopGroup: eventLoops)
                madeTransports.withLock { $0.append(transport) }
                base = transport
            } catch {
                throw InputError(.unusableFile, (error as? RequestError)?.description ?? "\(error)")
            }
        }
        return options.verbose ? VerboseTransport(base: base, proxies: proxies) : base
    }

    /// The environment variables that make the network's settings other
    /// than the process client's (which trusts what `SSL_CERT_FILE` and
    /// `SSL_CERT_DIR` say).
    private static let networkVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

    /// Whether the command sends through the process's own client: one
    /// request at a time, no option asks for other trust or a client
    /// certificate, and no option or variable for a proxy. `main()` starts
    /// that client early only then.
    static func usesProcessClient(_ options: UploaderOptions, environment: [String: String] = ProcessEnvironment.variables, concurrentRequests: Int = 1) -> Bool {
        concurrentRequests <= 1 && options.cacert == nil && !options.insecure && options.cert == nil && options.key == nil && options.proxy == nil
            && networkVariables.allSatisfy { environment[$0]?.isEmpty ?? true }
    }

    /// The transports made from settings, held for the process's lifetime
    /// and never shut down, as the process's own client is not: the process
    /// ends once the response is written. (AsyncHTTPClient traps when a
    /// client it was not told to shut down is released.)
    private static let madeTransports = Mutex<[AsyncHTTPClientTransport]>([])

    /// The process's one client (``processClient``), asked for only when a
    /// request is sent: a dry run never starts its event loop.
    struct SharedClientTransport: HTTPTransport {
        func stream(_ request: PreparedRequest, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> StreamedResponse {
            let (client, httpsProblem) = try CommandTransport.processClient.get()
            if let httpsProblem, request.head.scheme?.lowercased() != "http" { throw httpsProblem }
            return try await AsyncHTTPClientTransport(client: client).stream(request, progress: progress)
        }
    }

    /// The client for the command: one event loop, no redirects, no
    /// decompression, and the trust the environment gives
    /// (`SSL_CERT_FILE`, `SSL_CERT_DIR`, which many systems set, both
    /// trusted when both are set), with the error each `https://` request
    /// gets when those name something that cannot be used.
    /// Made while the request is prepared (`Uploader.main()`; a dry run
    /// never starts the loop's thread) and never shut down: the process
    /// ends once the response is in and written, and a graceful shutdown
    /// would only make it wait for the pool to close connections the exit
    /// closes anyway.
    static let processClient: Result<(client: HTTPClient, httpsProblem: RequestError?), InputError> = {
        var configuration = AsyncHTTPClientTransport.configuration()
        let httpsProblem: RequestError?
        do {
            httpsProblem = try configuration.apply(TLSSettings.fromEnvironment(ProcessEnvironment.variables))
        } catch {
            return .failure(InputError(.unusableFile, (error as? RequestError)?.description ?? "\(error)"))
        }
        configuration.redirectConfiguration = .disallow  // as curl and HTTPie without their follow options
        configuration.decompression = .disabled  // the body goes out unchanged
        // No tracing system is bootstrapped here: a span per request would
        // only cost its bookkeeping (a task-local and a dictionary of
        // attributes, and the runtime's type lookups for them).
        configuration.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroup: eventLoops, configuration: configuration)
        // AsyncHTTPClient describes the loop for each connection's log
        // metadata, on the loop, after the connection is made; its first
        // description pays the runtime's type lookups for reflection, as
        // the pipeline's first look at each handler type does. The loop
        // does both now instead, while it waits for the request to be
        // prepared.
        let loop = eventLoops.next()
        loop.execute {
            PipelineWarmUp.run()
            _ = String(describing: loop)
        }
        return .success((client, httpsProblem))
    }()

    /// One event loop for every client of the process, for its lifetime.
    /// The transport waits for the client's loops between body chunks, all
    /// of them; on one loop, an object store's `--concurrency` requests wake
    /// one thread per chunk, not one per core, and its TLS records, a few
    /// percent of the CPU, fit on one thread. Never shut down:
    /// AsyncHTTPClient's clean-up of a failed upload may still call on it
    /// after the response is in.
    private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// `-k`'s warning, on every run that uses it.
    static func warnIfInsecure(_ options: UploaderOptions) {
        guard options.insecure else { return }
        Diagnostics.report("warning: --insecure: the server's certificate is not verified; anyone on the path can read or change this upload")
    }
}
