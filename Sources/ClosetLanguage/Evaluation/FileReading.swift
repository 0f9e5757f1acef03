/// A file read in pieces, from its start as often as asked: an import reads a JSON file twice
/// (its shape, then its rows), a CSV file once (on a second thread, which alone reads it while
/// it does), and never holds more of it than a few pieces.
public protocol FileReading: AnyObject {
    /// Fills as much of `buffer` as the file has left from where the last read stopped; 0 at
    /// its end. Throws a `Diagnostic` (no range) when the file cannot be read.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Reads from the file's first byte again.
    func rewind() throws
    /// How many bytes the file has, if known: an import makes room for about as many rows.
    var byteCount: Int? { get }
}

extension FileReading {
    public var byteCount: Int? { nil }
}

/// A file already in memory, read as pieces of it (a host that keeps files in memory; a pipe,
/// which cannot be read twice).
package final class BytesReading: FileReading {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
        }
        offset += count
        return count
    }

    package func rewind() { offset = 0 }

    package var byteCount: Int? { bytes.count }
}
