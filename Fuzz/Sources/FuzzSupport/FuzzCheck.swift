import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the run with a message when an invariant fails; libFuzzer records
/// the input that did it as a crash.
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    let text = Array("fuzz invariant failed at \(file):\(line): \(message())\n".utf8)
    _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    abort()
}

/// Runs async code to completion from the synchronous fuzzer callback.
public func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) -> Result<Value, any Error> {
    let box = ResultBox<Value>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            box.result = .success(try await body())
        } catch {
            box.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return box.result ?? .failure(CancellationError())
}

/// Carries a result across the semaphore, which orders the write before the read.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
