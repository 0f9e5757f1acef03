import ClosetCore

/// A secondary index a table declares: each row falls into one of `bucketCount` buckets (for
/// the wardrobe, one per kind and time of year) and has an order key (its creation instant). A snapshot keeps,
/// for each bucket, its rows sorted by order key, so a new process counts and pages a filtered
/// listing without decoding the rows it does not show.
public struct TableIndex<Codec: TableCodec>: Sendable {
    public let bucketCount: Int
    public let bucket: @Sendable (Codec.Row) -> Int
    public let order: @Sendable (Codec.Row) -> Int64

    /// `bucketCount` is at most 256 (a bucket is one byte per row in the snapshot).
    public init(
        bucketCount: Int, bucket: @escaping @Sendable (Codec.Row) -> Int,
        order: @escaping @Sendable (Codec.Row) -> Int64
    ) {
        precondition((1...256).contains(bucketCount), "a table index has 1 to 256 buckets")
        self.bucketCount = bucketCount
        self.bucket = bucket
        self.order = order
    }
}
