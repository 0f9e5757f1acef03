import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program run on a pseudo-terminal of a given size, as a person's terminal runs it: its
/// standard input, output and error are the terminal, and what it wrote is read back whole
/// (with `\r\n` line ends, as a terminal's line discipline makes them).
package enum PseudoTerminal {
    package static func run(
        _ executable: String, _ arguments: [String], columns: Int, rows: Int, environment: [String: String] = [:],
        removing: [String] = []
    ) throws -> (status: Int32, output: String) {
        // posix_openpt and ptsname are not in Swift's Glibc module: the same through Linux's
        // /dev/ptmx and its ioctls (unlock the pair, then ask the terminal's number).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw CocoaError(.fileNoSuchFile) }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK, then TIOCGPTN.
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0
        else { throw CocoaError(.fileNoSuchFile) }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw CocoaError(.fileNoSuchFile) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        for name in removing { merged.removeValue(forKey: name) }
        process.environment = merged
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        close(slave)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }  // EIO once the program has exited and closed the terminal
            output += buffer[0..<count]
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
