import Testing
@testable import uploader

/// `main()` runs with ``UploaderOptions/defaults`` without asking the parser
/// when no option is given, so the two must agree, and every option the
/// parser reads must reach the options the command runs with.
@Suite struct UploaderOptionsTests {
    @Test func defaultsAreWhatTheParserGivesForNoOptions() throws {
        #expect(try Uploader.parsedOptions([]) == .defaults)
    }

    @Test func everyOptionReachesTheOptions() throws {
        var plain = UploaderOptions.defaults
        (plain.multipart, plain.gzip, plain.boundary, plain.dryRun, plain.output) = (true, true, "b", true, "out")
        (plain.timeout, plain.retry, plain.progress, plain.verbose, plain.printResponseHeaders) = (2.5, 3, false, true, true)
        #expect(try Uploader.parsedOptions([
            "--multipart", "--gzip", "--boundary=b", "--dry-run", "--output=out",
            "--timeout=2.5", "--retry=3", "--no-progress", "--verbose", "--print-response-headers",
        ]) == plain)

        var resumable = UploaderOptions.defaults
        (resumable.data, resumable.resumable, resumable.chunkSize) = ("@body.bin", true, "8M")
        (resumable.resumeFrom, resumable.stateDir, resumable.progress) = ("http://h/u", "state", true)
        #expect(try Uploader.parsedOptions([
            "--data=@body.bin", "--resumable", "--chunk-size=8M", "--resume-from=http://h/u", "--state-dir=state", "--progress",
        ]) == resumable)

        var store = UploaderOptions.defaults
        (store.endpointURL, store.region, store.partSize) = ("http://127.0.0.1:9000", "eu-west-1", "8M")
        (store.concurrency, store.multipartThreshold, store.presignedPost) = (2, "16M", "form.json")
        #expect(try Uploader.parsedOptions([
            "--endpoint-url=http://127.0.0.1:9000", "--region=eu-west-1", "--part-size=8M", "--concurrency=2",
            "--multipart-threshold=16M", "--presigned-post=form.json",
        ]) == store)

        var json = UploaderOptions.defaults
        (json.json, json.tus) = (true, true)
        #expect(try Uploader.parsedOptions(["--json", "--tus"]) == json)
        var form = UploaderOptions.defaults
        form.form = true
        #expect(try Uploader.parsedOptions(["--form"]) == form)
    }
}
