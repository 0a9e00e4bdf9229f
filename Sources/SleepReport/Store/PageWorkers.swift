import Foundation

/// How independent pages are rendered: one after another, or on the cores the caller lends
/// (the pipeline's work queue). Results come back in item order either way, so the files and the
/// index are those of a serial loop.
public struct PageWorkers: Sendable {
    /// Calls `body(k)` for every k in `0..<count`, from any thread, and returns when all are done.
    let run: @Sendable (Int, @escaping @Sendable (Int) -> Void) -> Void

    public init(_ run: @escaping @Sendable (Int, @escaping @Sendable (Int) -> Void) -> Void) { self.run = run }

    public static let serial = PageWorkers { count, body in for k in 0..<count { body(k) } }

    /// `body(k)` for every k, results in item order; the error of the first failing item in item
    /// order is rethrown, as a serial loop would have thrown it.
    func map<T>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let slots = Locked([Result<T, any Error>?](repeating: nil, count: count))
        run(count) { k in
            let result = Result { try body(k) }
            slots.with { $0[k] = result }
        }
        return try slots.with { $0 }.map { try $0!.get() }
    }
}

/// A value changed by one thread at a time.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func with<R>(_ body: (inout Value) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}
