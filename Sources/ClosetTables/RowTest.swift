/// A test a scan puts to each row: `bytesPass` on a snapshot row's stored bytes (nil: bytes cannot
/// tell, and the row is decoded and asked `rowPasses`), `rowPasses` on a row the journal changed.
public struct RowTest<Row> {
    public let bytesPass: (UnsafeRawBufferPointer) -> Bool?
    public let rowPasses: (Row) -> Bool

    public init(bytesPass: @escaping (UnsafeRawBufferPointer) -> Bool?, rowPasses: @escaping (Row) -> Bool) {
        self.bytesPass = bytesPass
        self.rowPasses = rowPasses
    }
}
