import Foundation
import TestSupport
import Testing

@testable import ClosetCore
@testable import ClosetStore
@testable import ClosetTables
@testable import WardrobePack

/// A snapshot read in place (rows decoded on demand, the journal's changes beside them, the
/// index answering counts and pages) gives exactly what decoding everything gives.
@Suite struct MappedSnapshotTests {
    /// Random clothes with few distinct instants, so equal keys (ties) are common; with
    /// `pictures`, a third of them name a picture (the snapshot lists their blobs).
    func randomClothes(_ generator: inout some RandomNumberGenerator, pictures: Bool = false) -> Clothes {
        Clothes(
            id: UUID(), createdAt: Date(timeIntervalSince1970: Double(Int.random(in: 0..<40, using: &generator))),
            image: pictures ? randomPicture(&generator) : nil,
            category: ClothesCategory.allCases.randomElement(using: &generator)!,
            weatherType: WeatherType.allCases.randomElement(using: &generator)!,
            descriptions: ["a", "b", "knit", "Navy KNIT 니트", "니트", "café", "cafe\u{301}"].randomElement(
                using: &generator)!)
    }

    /// A store with a snapshot and a journal of random changes after it; returns it reopened
    /// (rows still in the snapshot), the same state decoded whole, and how many rows the
    /// snapshot holds (an empty one leaves an ordinary table, with no index to answer from).
    func randomPicture(_ generator: inout some RandomNumberGenerator) -> ImageInfo? {
        guard Int.random(in: 0..<3, using: &generator) == 0 else { return nil }
        return ImageInfo(
            format: .png, width: 1, height: 1, bytes: 69, checksum: UInt32.random(in: 0...9, using: &generator))
    }

    func randomStore(_ generator: inout some RandomNumberGenerator, pictures: Bool = false) throws -> (
        DurableWardrobe, [Clothes], Int
    ) {
        let path = temporaryStore()
        var model: [Clothes] = []
        let inSnapshot = Int.random(in: 0..<120, using: &generator)
        do {
            let (store, _) = try open(path)
            for _ in 0..<inSnapshot {
                let clothes = randomClothes(&generator, pictures: pictures)
                try store.save(clothes: clothes)
            }
            try store.commit()
            try store.compact()
            var removed: [Clothes] = []
            for _ in 0..<Int.random(in: 0..<30, using: &generator) {
                let all = store.fetchAllClothes()
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !all.isEmpty:
                    let victim = all.randomElement(using: &generator)!
                    try store.remove(clothes: victim)
                    removed.append(victim)
                case 3 where !removed.isEmpty:
                    // Back after a removal: at the end, as an insert (reopened, the same order).
                    try store.save(clothes: removed.removeLast())
                case 1 where !all.isEmpty:
                    let old = all.randomElement(using: &generator)!
                    try store.save(
                        clothes: Clothes(
                            id: old.id,
                            createdAt: Date(timeIntervalSince1970: Double(Int.random(in: 0..<40, using: &generator))),
                            image: pictures ? randomPicture(&generator) : nil, category: old.category,
                            weatherType: WeatherType.allCases.randomElement(using: &generator)!,
                            descriptions: old.descriptions))
                default:
                    try store.save(clothes: randomClothes(&generator, pictures: pictures))
                }
                try store.commit()
            }
            model = store.fetchAllClothes()
        }
        return (try open(path).0, model, inSnapshot)
    }

    /// A compaction over rows still in the snapshot copies the unchanged rows as bytes and
    /// merges the index (`SectionCopy`): exactly the section that decoding every row and
    /// writing it again gives, blobs included; the store compacted so reopens as the model.
    @Test func copiedSectionsAreTheWrittenOnes() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<80 {
            let (store, model, inSnapshot) = try randomStore(&generator, pictures: true)
            let table = try store.tables.table(ClothesTable.schema)
            var copied = ByteWriter()
            table.writeSnapshotSection(committed: true, into: &copied)
            #expect((table.lazy != nil) == (inSnapshot > 0))  // copied, not decoded
            // Streamed a few bytes at a time (a compaction's file, in small pieces): the same bytes.
            let sink = MemorySink(pieceSize: 1 + round % 7 * 64)
            var streamed = ByteWriter(sink: sink)
            table.writeSnapshotSection(committed: true, into: &streamed)
            streamed.drain()
            #expect(sink.bytes == copied.bytes)
            if round.isMultiple(of: 2) {
                try store.compact()
                // The old mapping's pages the compaction gave back read again from the file.
                #expect(store.fetchAllClothes() == model)
                let (reopened, _) = try open(store.base.path)
                #expect(reopened.fetchAllClothes() == model)
                #expect(try reopened.tables.table(ClothesTable.schema).referencedBlobs == table.referencedBlobs)
            }
            _ = table.rows
            var written = ByteWriter()
            table.writeSnapshotSection(committed: true, into: &written)
            #expect(copied.bytes == written.bytes)
            // Decoded rows go to the sink as they are written, the index made from what each
            // row's writing recorded: the same bytes.
            let decodedSink = MemorySink(pieceSize: 1 + round % 5 * 48)
            var decodedStreamed = ByteWriter(sink: decodedSink)
            table.writeSnapshotSection(committed: true, into: &decodedStreamed)
            decodedStreamed.drain()
            #expect(decodedSink.bytes == written.bytes)
        }
    }

    /// A commit written as the snapshot itself copies the section with its changes still
    /// pending (the rows as they are now): the section decoding every row and writing the same
    /// state gives, and the committed state is still written from the rows alone.
    @Test func aSectionCopiedWithPendingChangesIsTheWrittenOne() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<60 {
            let (store, model, inSnapshot) = try randomStore(&generator, pictures: true)
            let table = try store.tables.table(ClothesTable.schema)
            var committed = ByteWriter()
            table.writeSnapshotSection(committed: true, into: &committed)
            // (Victims from the model: fetching every row would decode the table whole.)
            var left = model.shuffled(using: &generator)
            for _ in 0..<Int.random(in: 1..<20, using: &generator) {
                if Bool.random(using: &generator), let victim = left.popLast() {
                    try store.remove(clothes: victim)
                } else {
                    try store.save(clothes: randomClothes(&generator, pictures: true))
                }
            }
            var copied = ByteWriter()
            table.writeSnapshotSection(committed: false, into: &copied)
            #expect((table.lazy != nil) == (inSnapshot > 0))  // copied, not decoded
            var stillCommitted = ByteWriter()
            table.writeSnapshotSection(committed: true, into: &stillCommitted)
            #expect(stillCommitted.bytes == committed.bytes)
            _ = table.rows
            var written = ByteWriter()
            table.writeSnapshotSection(committed: false, into: &written)
            #expect(copied.bytes == written.bytes)
            store.base.rollback(to: Savepoint(position: 0))
        }
    }

    /// A whole snapshot streamed to a sink in small pieces (patched lengths, checksums read
    /// back) is byte for byte the one made in memory.
    @Test func aStreamedSnapshotIsTheOneMadeInMemory() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let (store, _, _) = try randomStore(&generator, pictures: true)
            let tables = store.base.tables.all
            let (bytes, header) = StoreFormat.snapshot(tables, generation: 7, committed: true)
            let sink = MemorySink(pieceSize: 1 + round * 97)
            var writer = ByteWriter(sink: sink)
            let streamedHeader = StoreFormat.writeSnapshot(tables, generation: 7, committed: true, into: &writer) {
                (writer, range) throws(Never) in
                writer.drain()
                return stride(from: range.lowerBound, to: range.upperBound, by: StoreFormat.blockSize).map {
                    StoreChecksum.crc32c(sink.bytes[$0..<min(range.upperBound, $0 + StoreFormat.blockSize)])
                }
            }
            #expect(sink.bytes == bytes)
            #expect(streamedHeader == header)
            #expect(writer.position == bytes.count)
        }
    }

    /// Rows read together from one span (a page) are the rows read one by one, whatever the
    /// span, the order or repeats; spans too wide are read row by row, or a span at a time when
    /// the rows are many.
    @Test func rowsReadTogetherAreTheRowsReadOneByOne() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<30 {
            let (store, _, _) = try randomStore(&generator)
            let table = try store.tables.table(ClothesTable.schema)
            guard let base = table.lazy?.base, base.count > 0 else { continue }
            for _ in 0..<10 {
                let ordinals = (0..<Int.random(in: 1...25, using: &generator)).map { _ in
                    Int.random(in: 0..<base.count, using: &generator)
                }
                let offsets = ordinals.map { base.frameStart($0) - base.rowsStart }
                let alone = ordinals.map { base.rowBytes($0) }
                #expect(base.rowsBytes(at: offsets) == alone)
                #expect(base.rowsBytes(at: offsets, spanRead: Int.random(in: 0..<2000, using: &generator)) == alone)
            }
            // Many rows for the bytes they lie in, in no order and repeated (a whole table in its
            // index order): read a span at a time in the order they lie, the same rows.
            let many = ((0..<base.count).flatMap { [$0, $0, $0] }).shuffled(using: &generator)
            let offsets = many.map { base.frameStart($0) - base.rowsStart }
            let alone = many.map { base.rowBytes($0) }
            for spanRead in [0, 1, 64, 256, 4096] { #expect(base.rowsBytes(at: offsets, spanRead: spanRead) == alone) }
        }
    }

    @Test func countsAndPagesFromTheIndexMatchTheViewModel() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<60 {
            let (store, model, inSnapshot) = try randomStore(&generator)
            let viewModel = ClothesViewModel(repository: store.wardrobe, fetchNow: false)
            for _ in 0..<8 {
                var filters: FilterItems = [.sort(Bool.random(using: &generator) ? .new : .old)]
                if Bool.random(using: &generator) {
                    filters.append(.weathers(Set(WeatherType.allCases.filter { _ in Bool.random(using: &generator) })))
                }
                if Bool.random(using: &generator) {
                    filters.append(.clothes(ClothesCategory.allCases.randomElement(using: &generator)!))
                }
                if Bool.random(using: &generator) {
                    filters.append(.search(["knit", "KNIT", "니트", "é", "a"].randomElement(using: &generator)!))
                }
                filters.append(.limit(Int.random(in: 0..<50, using: &generator)))
                viewModel.searchFilters = filters
                // The index answers while the rows are still in the snapshot (a search read from
                // the rows' bytes first)...
                let indexed = try viewModel.queryClothes()
                let counted = try viewModel.queryCount()
                var walked: [Clothes] = []
                try viewModel.forEachQueriedClothes { walked.append($0) }
                let fromIndex = store.wardrobe.indexedClothesCount(categories: 0xFF, seasons: 0xFF)
                #expect(fromIndex == model.count || (fromIndex == nil && inSnapshot == 0))
                // ...and the ordinary path over every row agrees.
                let expected = ClothesViewModel.applyFilters(
                    to: ClothesList(clothesByCategory: Dictionary(grouping: model, by: \.category)), filters: filters)
                var limit = Int.max
                for case .limit(let count) in filters { limit = min(limit, count) }
                let expectedRows = Array(expected.flattened.prefix(limit))
                #expect(indexed == expectedRows, "\(filters)")
                #expect(walked == expectedRows, "\(filters)")
                #expect(counted == expectedRows.count, "\(filters)")
            }
            // Lookups, counts and order agree before and after decoding everything.
            #expect(store.clothesCount == model.count)
            for clothes in model.prefix(10) { #expect(store.clothes(withID: clothes.id) == clothes) }
            #expect(store.clothes(withID: UUID()) == nil)
            #expect(store.fetchAllClothes() == model)
            #expect(store.wardrobe.indexedClothesCount(categories: 0xFF, seasons: 0xFF) == nil)  // decoded now
        }
    }

    /// A search counted from the stored rows' bytes (the snapshot's rows in file order, the
    /// journal's as rows) is Foundation's count over every row, with any categories and seasons.
    @Test func searchCountsFromTheStoredBytesMatchEveryRow() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<60 {
            let (store, model, inSnapshot) = try randomStore(&generator)
            for _ in 0..<8 {
                let texts = (0..<Int.random(in: 1...2, using: &generator)).map { _ in
                    ["knit", "KNIT", "니트", "t 니", "é", "cafe", "a", "zz"].randomElement(using: &generator)!
                }
                let categories = UInt8.random(in: 1...0xFF, using: &generator)
                let seasons = Bool.random(using: &generator) ? 0xFF : UInt8.random(in: 0...0xFF, using: &generator)
                let counted = store.wardrobe.indexedClothesCount(
                    categories: categories, seasons: seasons, searches: texts.map(TextSearch.init))
                let expected = model.count { clothes in
                    categories & (1 << UInt8(clothes.category.rawValue)) != 0
                        && seasons & (1 << UInt8(clothes.weatherType.rawValue)) != 0
                        && texts.allSatisfy { clothes.descriptions.range(of: $0, options: .caseInsensitive) != nil }
                }
                #expect(counted == expected || (counted == nil && inSnapshot == 0), "\(texts)")
            }
            // The view model counts the same way, and agrees with its own filtering.
            let viewModel = ClothesViewModel(repository: store.wardrobe, fetchNow: false)
            viewModel.searchFilters = [.search("knit"), .weather(.fall)]
            let counted = try viewModel.queryCount()
            #expect(counted == viewModel.filteredClothes.count)
        }
    }

    /// `orderedRows` (pages of a declared index, with a skip) gives exactly the model's order,
    /// from the snapshot's index and from decoded rows sorted once per change.
    @Test func orderedPagesMatchTheModelFromTheSnapshotAndFromDecodedRows() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let (store, model, _) = try randomStore(&generator)
            let table = try store.tables.table(ClothesTable.schema)
            let positions = Dictionary(uniqueKeysWithValues: model.enumerated().map { ($1.id, $0) })
            for decoded in [false, true] {
                if decoded { _ = table.rows }  // decodes every row: the in-memory path from here
                for _ in 0..<8 {
                    let buckets = Array(0..<ClothesTable.bucketCount)
                    // Half the time one bucket alone: its skip is stepped over in bulk.
                    let groups =
                        Bool.random(using: &generator)
                        ? [[buckets.randomElement(using: &generator)!]]
                        : (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                            buckets.filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }
                        }
                    let descending = Bool.random(using: &generator)
                    let skip = Int.random(in: 0..<max(40, model.count / 3 + 5), using: &generator)
                    let limit = Int.random(in: 0..<30, using: &generator)
                    // Keyset: strictly after an order key in the walk's direction, or from the start.
                    let after =
                        Bool.random(using: &generator) ? model.randomElement().map(ClothesTable.order(of:)) : nil
                    var expected: [Clothes] = []
                    for group in groups {
                        let members = model.filter { clothes in
                            let order = ClothesTable.order(of: clothes)
                            let past = after.map { descending ? order < $0 : order > $0 } ?? true
                            return group.contains(ClothesTable.bucket(of: clothes)) && past
                        }.sorted { a, b in
                            let (x, y) = (ClothesTable.order(of: a), ClothesTable.order(of: b))
                            let first = x != y ? x > y : positions[a.id]! > positions[b.id]!
                            return descending ? first : !first
                        }
                        expected += members
                    }
                    let page = table.orderedRows(
                        groups: groups, descending: descending, after: after, skip: skip, limit: limit)
                    #expect(page == Array(expected.dropFirst(skip).prefix(limit)), "decoded: \(decoded)")
                }
            }
        }
    }

    /// Issue 47: the rows one at a time in the order they were added (a dump), over a snapshot
    /// and the journal's replacements, removals and returns, read in spans of any size, are the
    /// decoded table's rows in its order.
    @Test func walkingTheRowsInTheirOrderMatchesTheDecodedTable() throws {
        var generator = SystemRandomNumberGenerator()
        var answered = 0
        for _ in 0..<30 {
            let (store, model, _) = try randomStore(&generator)
            let table = try store.tables.table(ClothesTable.schema)
            var walked: [Clothes] = []
            let span = Int.random(in: 1...4096, using: &generator)
            guard try table.forEachRowInOrder(span: span, { walked.append($0) }) else {
                #expect(walked.isEmpty)
                continue
            }
            answered += 1
            #expect(walked == model, "span \(span)")
            #expect(walked == table.rows)
        }
        #expect(answered >= 10)
    }

    /// Issue 47: a whole walk of the index, handed over a batch at a time (an export), is the
    /// model's order, over a snapshot and the journal's changes, at any batch size and limit;
    /// a visit that throws stops the walk with its error.
    @Test func walkingTheIndexOneRowAtATimeMatchesTheModel() throws {
        var generator = SystemRandomNumberGenerator()
        var answeredWalks = 0
        defer { #expect(answeredWalks >= 10, "only \(answeredWalks) of 30 stores walked from a snapshot") }
        for _ in 0..<30 {
            let (store, model, _) = try randomStore(&generator)
            let table = try store.tables.table(ClothesTable.schema)
            let positions = Dictionary(uniqueKeysWithValues: model.enumerated().map { ($1.id, $0) })
            let buckets = Array(0..<ClothesTable.bucketCount)
            let groups = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                buckets.filter { _ in Int.random(in: 0..<3, using: &generator) == 0 }
            }
            let descending = Bool.random(using: &generator)
            var expected: [Clothes] = []
            for group in groups {
                expected += model.filter { group.contains(ClothesTable.bucket(of: $0)) }.sorted { a, b in
                    let (x, y) = (ClothesTable.order(of: a), ClothesTable.order(of: b))
                    let first = x != y ? x > y : positions[a.id]! > positions[b.id]!
                    return descending ? first : !first
                }
            }
            let limit =
                Bool.random(using: &generator) ? Int.max : Int.random(in: 0...expected.count + 3, using: &generator)
            var walked: [Clothes] = []
            let answered = try table.forEachIndexedRow(
                groups: groups, descending: descending, limit: limit, batch: Int.random(in: 1...9, using: &generator)
            ) { walked.append($0) }
            // Not answered (nothing of the table in a mapped snapshot): none visited, and the
            // caller takes the ordered rows instead.
            guard answered else {
                #expect(walked.isEmpty)
                continue
            }
            answeredWalks += 1
            #expect(walked == Array(expected.prefix(limit)))
            struct Stop: Error {}
            guard model.count >= 2 else { continue }
            var seen = 0
            #expect(throws: Stop.self) {
                _ = try table.forEachIndexedRow(groups: [buckets], descending: descending, batch: 3) { _ in
                    seen += 1
                    if seen == 2 { throw Stop() }
                }
            }
            #expect(seen == 2)
        }
    }

    /// A whole table's walk in batches of 4,096 rows or more over rows of a few megabytes (an
    /// export's) reads the snapshot rows where they lie in the mapping, the journal's changes
    /// merged in: the same rows, in the same order, as a walk a few rows at a time.
    @Test func aWholeWalkReadInPlaceIsTheWalkReadRowByRow() throws {
        var generator = SystemRandomNumberGenerator()
        let path = temporaryStore()
        do {
            let (store, _) = try open(path)
            for _ in 0..<5_000 { try store.save(clothes: randomClothes(&generator)) }
            try store.commit()
            try store.compact()
            var all = store.fetchAllClothes()
            for change in 0..<60 {
                let victim = all.randomElement(using: &generator)!
                switch change % 3 {
                case 0: try store.remove(clothes: victim)
                case 1:
                    var edited = victim
                    edited.descriptions = "edited \(change)"
                    try store.save(clothes: edited)
                default: try store.save(clothes: randomClothes(&generator))
                }
                all = store.fetchAllClothes()
            }
            try store.commit()
        }
        let (store, _) = try open(path)
        let table = try store.tables.table(ClothesTable.schema)
        let buckets = Array(0..<ClothesTable.bucketCount)
        for descending in [false, true] {
            var whole: [Clothes] = []
            var few: [Clothes] = []
            let answeredWhole = try table.forEachIndexedRow(groups: [buckets], descending: descending, batch: 8_192) {
                whole.append($0)
            }
            let answeredFew = try table.forEachIndexedRow(groups: [buckets], descending: descending, batch: 7) {
                few.append($0)
            }
            #expect(answeredWhole && answeredFew)
            // 5,000: a third of the changes were removals, a third additions (`fetchAllClothes`
            // would decode the table whole, and no walk would read the snapshot after it).
            #expect(whole.count == 5_000)
            #expect(whole == few)
        }
    }

    /// A page far down one bucket, over a snapshot and rows inserted after it (the journal's,
    /// none replaced): its skip is stepped over in bulk between the inserted rows, and the page
    /// is exactly the model's, at every skip.
    @Test func aFarPageOfOneBucketOverInsertsMatchesTheModel() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let path = temporaryStore()
            var model: [Clothes] = []
            do {
                let (store, _) = try open(path)
                // At least one: an empty snapshot has no section to read in place.
                for _ in 0..<Int.random(in: 1..<150, using: &generator) {
                    let clothes = randomClothes(&generator)
                    try store.save(clothes: clothes)
                    model.append(clothes)
                }
                try store.commit()
                try store.compact()
            }
            do {
                let (store, _) = try open(path)
                for _ in 0..<Int.random(in: 0..<40, using: &generator) {
                    let clothes = randomClothes(&generator)
                    try store.save(clothes: clothes)
                    model.append(clothes)
                }
                try store.commit()
            }
            let (store, _) = try open(path)  // the snapshot read in place, the inserts beside it
            let table = try store.tables.table(ClothesTable.schema)
            let positions = Dictionary(uniqueKeysWithValues: model.enumerated().map { ($1.id, $0) })
            for _ in 0..<12 {
                let bucket = Int.random(in: 0..<ClothesTable.bucketCount, using: &generator)
                let descending = Bool.random(using: &generator)
                let members = model.filter { ClothesTable.bucket(of: $0) == bucket }.sorted { a, b in
                    let (x, y) = (ClothesTable.order(of: a), ClothesTable.order(of: b))
                    let first = x != y ? x > y : positions[a.id]! > positions[b.id]!
                    return descending ? first : !first
                }
                let skip = Int.random(in: 0...(members.count + 2), using: &generator)
                let limit = Int.random(in: 1..<10, using: &generator)
                let page = table.indexedRows(groups: [[bucket]], descending: descending, skip: skip, limit: limit)
                #expect(page != nil, "read from the snapshot's index")
                #expect(page == Array(members.dropFirst(skip).prefix(limit)), "skip \(skip) of \(members.count)")
            }
        }
    }

    /// A walk's rows held as where they lie (`indexedRowList`) are the rows `indexedRows`
    /// gives, over a snapshot with the journal's inserts, replacements and removals beside it,
    /// read in order (twice, as a table is drawn), at random, and after the store moved on
    /// (more commits and a compaction: the list reads the snapshot it was made from).
    /// A walk through a bucket of more entries than a walk keeps before giving their pages back
    /// (`BucketCursor.releaseEvery`), both ways, whole, from a key on, and as a list: the rows in
    /// the order the decoded table sorts them.
    @Test func aWalkThroughABigBucketGivesItsRowsInOrder() throws {
        let path = temporaryStore()
        var model: [Clothes] = []
        do {
            let (store, _) = try open(path)
            for index in 0..<(BucketCursor.releaseEvery * 2 + 500) {
                let clothes = Clothes(
                    id: UUID(), createdAt: Date(timeIntervalSince1970: Double(index % 7_000)), image: nil,
                    category: index % 50 == 0 ? .shoes : .top, weatherType: .fall, descriptions: "row \(index)")
                try store.save(clothes: clothes)
                model.append(clothes)
            }
            try store.commit()
            try store.compact()
        }
        let (store, _) = try open(path)
        let table = try store.tables.table(ClothesTable.schema)
        let groups = [[ClothesTable.bucket(category: .top, season: .fall)]]
        let tops = Array(model.enumerated().filter { $0.element.category == .top })
        for descending in [true, false] {
            // Newest first, equal times the later-added first; oldest first the exact reverse.
            let ordered = tops.sorted { a, b in
                let (x, y) = (a.element.createdAt, b.element.createdAt)
                return descending ? (x != y ? x > y : a.offset > b.offset) : (x != y ? x < y : a.offset < b.offset)
            }.map(\.element)
            #expect(try #require(table.indexedRows(groups: groups, descending: descending, limit: .max)) == ordered)
            let list = try #require(table.indexedRowList(groups: groups, descending: descending, limit: .max))
            #expect((0..<list.count).map { list.row(at: $0) } == ordered)
            let after = ordered[ordered.count / 3].createdAt.timeIntervalSince1970
            let later = ordered.filter {
                descending ? $0.createdAt.timeIntervalSince1970 < after : $0.createdAt.timeIntervalSince1970 > after
            }
            #expect(
                try #require(
                    table.indexedRows(
                        groups: groups, descending: descending, after: Int64(after * 1000), limit: .max)
                )
                .map(\.id) == later.map(\.id))
        }
    }

    @Test func aRowListReadsTheRowsTheWalkGives() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<12 {
            let path = temporaryStore()
            do {
                let (store, _) = try open(path)
                // Past a batch of the list (4,096), and past its checkpoints, in some rounds.
                for _ in 0..<(round % 3 == 0 ? 9_000 : Int.random(in: 1..<400, using: &generator)) {
                    try store.save(clothes: randomClothes(&generator))
                }
                try store.commit()
                try store.compact()
            }
            do {
                let (store, _) = try open(path)
                let all = store.fetchAllClothes()
                for _ in 0..<Int.random(in: 0..<30, using: &generator) {
                    try store.save(clothes: randomClothes(&generator))
                }
                for clothes in all.shuffled(using: &generator).prefix(Int.random(in: 0..<20, using: &generator)) {
                    if Bool.random(using: &generator) {
                        var changed = clothes
                        changed.descriptions += " changed"
                        changed.weatherType = WeatherType.allCases.randomElement(using: &generator)!
                        try store.save(clothes: changed)
                    } else {
                        try store.remove(clothes: clothes)
                    }
                }
                try store.commit()
            }
            let (store, _) = try open(path)
            let table = try store.tables.table(ClothesTable.schema)
            // Every category's seasons, or a random few of them (a group may be empty), in
            // display order or shuffled.
            let whole = round % 2 == 0
            let groups = ClothesCategory.allCases.shuffled(using: &generator).map { category in
                WeatherType.allCases.filter { _ in whole || Bool.random(using: &generator) }.map {
                    ClothesTable.bucket(category: category, season: $0)
                }
            }
            // Some rounds keep only the rows whose description holds a "k" (a scan's ordinals).
            let test =
                round % 4 == 1
                ? RowTest<Clothes>(bytesPass: { _ in nil }, rowPasses: { $0.descriptions.contains("k") }) : nil
            let descending = Bool.random(using: &generator)
            let limit = Bool.random(using: &generator) ? Int.max : Int.random(in: 0..<50, using: &generator)
            let expected = try #require(
                table.indexedRows(groups: groups, descending: descending, limit: limit, passing: test))
            let list = try #require(
                table.indexedRowList(groups: groups, descending: descending, limit: limit, passing: test))
            #expect(list.count == expected.count)
            for _ in 0..<2 { #expect((0..<list.count).map { list.row(at: $0) } == expected) }
            // Rows read through the file a span at a time (as past `SnapshotRows.inPlaceWalkLimit`), and
            // through the offsets column (format 4's way): the same rows.
            for reading in [IndexedRowList<ClothesTable>.Reading.throughTheFile, .byOrdinal] {
                let other = try #require(
                    table.indexedRowList(
                        groups: groups, descending: descending, limit: limit, passing: test, reading: reading))
                #expect((0..<other.count).map { other.row(at: $0) } == expected, "\(reading)")
                for _ in 0..<10 where !expected.isEmpty {
                    let position = Int.random(in: 0..<expected.count, using: &generator)
                    #expect(other.row(at: position) == expected[position], "\(reading)")
                }
            }
            // At random, and backwards: each read stands the walk's cursors again from the
            // checkpoint before it.
            for _ in 0..<50 where !expected.isEmpty {
                let position = Int.random(in: 0..<expected.count, using: &generator)
                #expect(list.row(at: position) == expected[position])
            }
            let backwards = stride(from: expected.count - 1, through: 0, by: -997).map { list.row(at: $0) }
            #expect(backwards == stride(from: expected.count - 1, through: 0, by: -997).map { expected[$0] })
            try store.save(clothes: randomClothes(&generator))
            try store.remove(clothes: try #require(store.fetchAllClothes().first))
            try store.commit()
            try store.compact()
            #expect((0..<list.count).map { list.row(at: $0) } == expected, "the snapshot it was made from")
        }
    }

    /// Writes, rollbacks and commits on rows still in the snapshot end where the same
    /// statements on fully decoded rows end, before and after decoding, and after reopening.
    @Test func writesAndRollbacksOverRowsStillInTheSnapshotMatchDecodedRows() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let path = temporaryStore()
            do {
                let (store, _) = try open(path)
                for _ in 0..<Int.random(in: 1..<60, using: &generator) {
                    try store.save(clothes: randomClothes(&generator))
                }
                try store.commit()
                try store.compact()
            }
            let (lazy, _) = try open(path)  // rows in the snapshot
            let eager = MemoryStore(Wardrobe.pack.tables)
            let eagerWardrobe = try TableWardrobe(eager)
            for clothes in lazy.fetchAllClothes() { try eagerWardrobe.save(clothes: clothes) }
            try eager.commit()
            let (reader, _) = try open(path)
            let lazyRows = reader  // reopened, still lazy: the one written to below
            for step in 0..<40 {
                let all = eagerWardrobe.fetchAllClothes()
                let savepoint = (lazyRows.savepoint(), eager.savepoint())
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !all.isEmpty:
                    let victim = all.randomElement(using: &generator)!
                    try lazyRows.remove(clothes: victim)
                    try eagerWardrobe.remove(clothes: victim)
                case 1 where !all.isEmpty:
                    let old = all.randomElement(using: &generator)!
                    let edited = Clothes(
                        id: old.id, createdAt: old.createdAt, image: nil, category: old.category,
                        weatherType: WeatherType.allCases.randomElement(using: &generator)!, descriptions: "edited")
                    try lazyRows.save(clothes: edited)
                    try eagerWardrobe.save(clothes: edited)
                default:
                    let clothes = randomClothes(&generator)
                    try lazyRows.save(clothes: clothes)
                    try eagerWardrobe.save(clothes: clothes)
                }
                if Bool.random(using: &generator) {
                    lazyRows.rollback(to: savepoint.0)
                    eager.rollback(to: savepoint.1)
                } else if step % 3 == 0 {
                    try lazyRows.commit()
                    try eager.commit()
                }
                #expect(lazyRows.clothesCount == eagerWardrobe.clothesCount)
            }
            try lazyRows.commit()
            try eager.commit()
            #expect(
                lazyRows.wardrobe.indexedClothesCount(categories: 0xFF, seasons: 0xFF) == eagerWardrobe.clothesCount)
            #expect(lazyRows.fetchAllClothes() == eagerWardrobe.fetchAllClothes())
            #expect(try open(path).0.fetchAllClothes() == eagerWardrobe.fetchAllClothes())
            _ = lazy
        }
    }

    @Test func aSnapshotSectionThatDoesNotAddUpIsRefusedNeverTrappedOn() throws {
        let path = temporaryStore()
        do {
            let (store, _) = try open(path)
            for clothes in MockWardrobe().allClothes { try store.save(clothes: clothes) }
            try store.commit()
            try store.compact()
        }
        let bytes = try POSIXFile.readAll(path + "/snapshot")!
        // Bytes of the body changed one at a time (as if the checksum had been made good
        // again): the section's checks refuse what does not add up, and nothing traps.
        var refused = 0
        for position in stride(from: StoreFormat.snapshotHeaderSize, to: bytes.count, by: 3) {
            var damaged = bytes
            damaged[position] ^= 0x5A
            let tables = Tables(Wardrobe.pack.tables)
            do throws(ByteReader.Malformed) {
                try StoreFormat.loadSnapshot(damaged, into: tables)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    /// The journal's keys at open are looked up together (`SnapshotRows.ordinals(ofKeys:)`):
    /// for present, absent, repeated and extreme keys it answers exactly as one search each.
    @Test func aBatchOfKeyLookupsAnswersAsOneSearchEach() throws {
        let path = temporaryStore()
        var generator = SeededRandom(seed: 7)
        var stored: [Clothes] = []
        do {
            let (store, _) = try open(path)
            for _ in 0..<500 {
                let clothes = randomClothes(&generator)
                stored.append(clothes)
                try store.save(clothes: clothes)
            }
            try store.commit()
            try store.compact()
        }
        let mapped = try #require(try MappedFile.open(path + "/snapshot"))
        let tables = Tables(Wardrobe.pack.tables)
        let header = try #require(try StoreFormat.snapshotHeader(memory: mapped.memory))
        try StoreFormat.loadSnapshot(memory: mapped.memory, header: header, owner: mapped, into: tables)
        let table = try tables.table(ClothesTable.schema)
        let base = try #require(table.lazy?.base)
        func bytes(_ id: UUID) -> [UInt8] {
            var writer = ByteWriter()
            ClothesTable.encode(key: id, into: &writer)
            return writer.bytes
        }
        let probes =
            stored.shuffled(using: &generator).prefix(200).map { bytes($0.id) }
            + (0..<100).map { _ in bytes(UUID()) } + [bytes(stored[0].id), bytes(stored[0].id)]
            + [[UInt8](repeating: 0, count: 16), [UInt8](repeating: 0xFF, count: 16)]
        #expect(base.ordinals(ofKeys: probes) == probes.map { base.ordinal(ofKey: $0) })
        #expect(base.ordinals(ofKeys: probes).compactMap { $0 }.count == 202)
    }

    /// Keys that share their first eight bytes, or differ only past a shorter key's end, are
    /// told apart by their whole bytes: the key order's prefixes only narrow the search.
    /// Every stored key is found, every other one is not, one by one and together, and the
    /// section passes `.check`'s walk.
    @Test func keysWhosePrefixesAreEqualAreFoundByTheirWholeBytes() throws {
        var generator = SeededRandom(seed: 5)
        var keys = Set<[UInt8]>()
        // From three byte values and lengths 0 to 12: most prefixes are shared, some keys are
        // others with zeros after them.
        while keys.count < 400 {
            let length = Int.random(in: 0...12, using: &generator)
            keys.insert((0..<length).map { _ in [0, 1, 0xFF].randomElement(using: &generator)! })
        }
        let stored = Array(keys).shuffled(using: &generator)
        var writer = ByteWriter()
        SnapshotSection.write(into: &writer) { writer, _ in
            for (number, key) in stored.enumerated() {
                RowFrame.part16(&writer) { $0.bytes += key }
                RowFrame.part32(&writer) { $0.u32(UInt32(number)) }
            }
            return stored.count
        }
        let bytes = writer.bytes
        try bytes.withUnsafeBytes { memory in
            let rows = try #require(SnapshotRows(memory: memory, owner: Tables(), start: 0))
            #expect(rows.indexProblem() == nil)
            for (ordinal, key) in stored.enumerated() { #expect(rows.ordinal(ofKey: key) == ordinal) }
            var absent: [[UInt8]] = []
            while absent.count < 400 {
                let length = Int.random(in: 0...13, using: &generator)
                let key = (0..<length).map { _ in ([0, 1, 2, 0xFF] as [UInt8]).randomElement(using: &generator)! }
                if !keys.contains(key) { absent.append(key) }
            }
            for key in absent { #expect(rows.ordinal(ofKey: key) == nil) }
            let probes = (stored + absent).shuffled(using: &generator)
            #expect(rows.ordinals(ofKeys: probes) == probes.map { rows.ordinal(ofKey: $0) })
        }
    }

    /// Many small commits after a snapshot (each its own journal record), then a reopen: the
    /// rows, counts and pages are those of the store decoded whole.
    @Test func manySmallCommitsOverASnapshotReadBackExactly() throws {
        let path = temporaryStore()
        var generator = SeededRandom(seed: 11)
        var expected: [Clothes] = []
        do {
            let (store, _) = try open(path)
            for _ in 0..<300 { try store.save(clothes: randomClothes(&generator)) }
            try store.commit()
            try store.compact()
            for step in 0..<400 {
                let all = store.fetchAllClothes()
                if step % 5 == 0, let victim = all.randomElement(using: &generator) {
                    try store.remove(clothes: victim)
                } else if step % 7 == 0, let old = all.randomElement(using: &generator) {
                    var changed = old
                    changed.weatherType = WeatherType.allCases.randomElement(using: &generator)!
                    try store.save(clothes: changed)
                } else {
                    try store.save(clothes: randomClothes(&generator))
                }
                try store.commit()
            }
            expected = store.fetchAllClothes()
        }
        let (reopened, _) = try open(path)
        // Looked up first (the journal's changes are placed then, in one pass), then whole.
        for clothes in expected { #expect(reopened.clothes(withID: clothes.id) == clothes) }
        #expect(reopened.clothes(withID: UUID()) == nil)
        #expect(reopened.fetchAllClothes() == expected)
    }
}

/// A sink that keeps what it is given (a file's stand-in).
final class MemorySink: ByteSink {
    let pieceSize: Int
    var bytes: [UInt8] = []

    init(pieceSize: Int) { self.pieceSize = pieceSize }

    func append(_ bytes: [UInt8]) { self.bytes += bytes }
    func overwrite(at position: Int, with bytes: [UInt8]) {
        self.bytes.replaceSubrange(position..<(position + bytes.count), with: bytes)
    }
    func read(at position: Int, count: Int) -> [UInt8] { Array(bytes[position..<(position + count)]) }
}
