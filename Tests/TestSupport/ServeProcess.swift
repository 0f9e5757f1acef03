import Foundation

/// `closet serve` in a process of its own, as a person starts it: on a port the system picks
/// (`--port 0`), its base URL read from the first line it prints; its output kept whole.
package final class ServeProcess: @unchecked Sendable {
    package let process = Process()
    package private(set) var baseURL = ""
    private let lock = NSLock()
    private var collected = Data()
    private let output = Pipe()

    /// `closet [options] serve --port 0 [serveArguments]` on `store`.
    package init(
        store: String, options: [String] = ["--deterministic"], serveArguments: [String] = [],
        environment: [String: String] = [:]
    ) throws {
        process.executableURL = URL(fileURLWithPath: BuiltProducts.closet)
        process.arguments = ["--store", store] + options + ["serve", "--port", "0"] + serveArguments
        var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        merged.removeValue(forKey: "CLOSET_MARKET_URL")
        process.environment = merged
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.collected.append(data)
            self.lock.unlock()
        }
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let text = self.text
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("closet serve: http://") }) {
                baseURL = String(line.dropFirst("closet serve: ".count).prefix { $0 != " " })
                return
            }
            if !process.isRunning { break }
            usleep(10_000)
        }
        process.terminate()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "closet serve did not start: \(text)"])
    }

    /// Everything it printed so far.
    package var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// SIGTERM, then its exit status once it has stopped.
    @discardableResult
    package func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        // What the handler has not read yet (the last lines) is read here, whole.
        output.fileHandleForReading.readabilityHandler = nil
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        lock.lock()
        collected.append(rest)
        lock.unlock()
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
}
