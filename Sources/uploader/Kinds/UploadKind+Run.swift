import RequestBuilder
import UploaderItems

extension UploadKind {
    /// The type that runs this kind of upload: one per kind.
    var job: any UploadJob.Type {
        switch self {
        case .plain: PlainJob.self
        case .resumable, .tus: ResumableJob.self
        case .object: ObjectJob.self
        case .objectTree: ObjectTreeJob.self
        case .presignedPost: PresignedPostJob.self
        }
    }

    /// Runs the command, whose kind this is and whose options the kind
    /// takes (``OptionRule/table``): the transport, then the kind's job, its
    /// dry run or its run. Returns the exit status; messages go to
    /// standard error. The job takes `commandLine` (the parsed request keeps
    /// what it needs of it).
    func run(_ options: UploaderOptions, commandLine: consuming CommandLineSplit) async -> ExitStatus {
        CommandTransport.warnIfInsecure(options)
        if !readsStandardInput, !options.ignoreStdin, StandardInputContent.hasWaitingBytes {
            // Piped bytes are never dropped without a word.
            Diagnostics.report("warning: standard input is not read by \(name) (--ignore-stdin says so and silences this)")
        }
        let job: any UploadJob
        do throws(InputError) {
            let objectStoreBundle = isObjectStorage ? try ObjectStoreCABundle.path(profile: options.profile, endpointURL: options.endpointURL) : nil
            let network = try CommandTransport.make(options, concurrentRequests: concurrentRequests(options), objectStoreBundle: objectStoreBundle)
            job = try self.job.init(options: options, commandLine: consume commandLine, network: network)
        } catch {
            Diagnostics.report(error.description)
            return .badInput
        }
        return options.dryRun ? await job.dryRun() : await job.run()
    }
}
