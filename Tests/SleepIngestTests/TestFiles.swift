import Foundation

/// A temporary folder per test, removed afterwards.
final class TemporaryFolder {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "sleepsta-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let p = path + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) -> String {
        let p = path + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }
}
