/// `.check` for a table still read in place: its section's index, and every row decoded once
/// and dropped (memory stays at one row), each row's key the key its frame holds.
extension Table {
    public func checkSnapshotRows() -> String? { checkRows(self) }

    @inlinable func checkSnapshotRowsSpecialized() -> String? {
        guard let base = lazy?.base else { return nil }
        if let problem = base.indexProblem() {
            return "table '\(name)': its snapshot section passes its checksum but \(problem)"
        }
        for ordinal in 0..<base.count {
            let frame = base.frameBytes(ordinal)
            var reader = ByteReader(frame.bytes, from: frame.row.lowerBound, to: frame.row.upperBound)
            guard let row = try? Codec.decodeRow(from: &reader), reader.isAtEnd,
                Self.keyBytes(Codec.key(of: row)) == Array(frame.bytes[frame.key])
            else {
                return "table '\(name)': snapshot row \(ordinal) passes its checksum but cannot be read"
            }
        }
        return nil
    }
}
