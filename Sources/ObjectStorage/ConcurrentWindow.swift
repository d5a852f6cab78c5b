/// Runs `work` on each of `items`, at most `width` at once: one more starts
/// as each ends, so the items in flight, and what each holds (a part's
/// buffers, a file's connection), never pass `width`. `collect` gets each
/// output on the calling task, in the order they finish.
///
/// The first failure cancels the items in flight and starts no more; it is
/// thrown once they have ended. The one window for an upload's parts and a
/// tree's files.
package func forEachConcurrently<Item: Sendable, Output: Sendable, Failure: Error>(
    _ items: [Item],
    atMost width: Int,
    _ work: @escaping @Sendable (Item) async throws(Failure) -> Output,
    collect: (Output) -> Void
) async throws(Failure) {
    let failure: Failure? = await withTaskGroup(of: Result<Output, Failure>.self) { group in
        var pending = items.makeIterator()
        func startNext() -> Bool {
            guard let item = pending.next() else { return false }
            group.addTask {
                do throws(Failure) {
                    return .success(try await work(item))
                } catch {
                    return .failure(error)
                }
            }
            return true
        }
        for _ in 0..<max(1, width) where !startNext() { break }
        while let outcome = await group.next() {
            switch outcome {
            case .success(let output):
                collect(output)
                _ = startNext()
            case .failure(let error):
                group.cancelAll()
                return error
            }
        }
        return nil
    }
    if let failure { throw failure }
}
