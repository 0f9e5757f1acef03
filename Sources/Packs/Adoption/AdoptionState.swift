import ClosetCore
import ClosetCrypto
import ClosetLanguage
import ClosetNetwork
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The adoption pack in one session: the dogs seen (for `show dog` and completion) and the
/// query the last `list dogs` paged through.
final class AdoptionState: PackState {
    let network: Network
    private(set) var seen: [String: ShelterDog] = [:]
    private(set) var seenOrder: [String] = []
    var query = AnimalAPI.Query()
    /// Rows listed so far for the current query (`next` numbers on).
    var listed = 0
    /// The 시군구, shelter and breed lists fetched this session.
    var pickers = PickerLists()

    let community: Community
    let user: () -> String
    /// Salts, token ids and the token key are drawn from it.
    let ids: IDGenerator
    /// Dog pictures: `$XDG_CACHE_HOME/closet/dogs`, or a private temporary folder removed at
    /// the end with a `:memory:` store.
    var pictures: DogPictureCache {
        if let madePictures { return madePictures }
        // Named on first use: a private temporary folder's name costs a random UUID and
        // Foundation's temporary-folder lookup, which most sessions never need.
        let made = DogPictureCache(
            directory: cacheRoot.map { $0 + "/dogs" } ?? NSTemporaryDirectory() + "closet-dogs-" + UUID().uuidString)
        madePictures = made
        return made
    }
    private var madePictures: DogPictureCache?
    private let cacheRoot: String?
    private var picturesAreTemporary: Bool { cacheRoot == nil }

    /// Who a write is by: `key` (`author=`, `user=`, as a dump restores it), else the session's
    /// user. An empty name is refused: a dump leaves it out, and its replay would name another.
    func person(_ invocation: Invocation, _ key: String) throws(Diagnostic) -> String {
        guard let argument = invocation.argument(key), let name = invocation.text(key) else { return user() }
        guard !name.isEmpty else { throw Diagnostic.emptyUser(key, at: argument.range) }
        return name
    }

    /// An id from the community's sequence, or the one given (`key`).
    func newID(_ what: String, _ invocation: Invocation, _ key: String = "id") throws(Diagnostic) -> Int {
        if invocation.count(key) == 0 { throw Diagnostic.idStartsAtOne(key, at: invocation.argument(key)?.range) }
        guard let id = community.take(what, id: invocation.count(key)) else {
            throw Diagnostic.noIDLeft(what, at: invocation.call.range)
        }
        return id
    }

    init(_ services: PackServices) throws {
        network = services.network
        community = try Community(services.store)
        user = services.user
        ids = services.ids
        cacheRoot = services.cacheRoot
    }

    /// What a sign-in with an unknown name is checked against, at the same cost as a member's.
    private(set) lazy var decoyHash = hash("not a member's password")

    /// A password's salted hash, as the market keeps its passwords: a seeded id source is a
    /// deterministic (test) session, whose salts repeat, so its hashes take the cheapest
    /// accepted cost.
    func hash(_ password: String) -> PasswordHash {
        let salt = withUnsafeBytes(of: ids.next().uuid) { Array($0) }
        return PasswordHash(
            password: password, salt: salt,
            iterations: ids.mayRepeat ? PasswordHash.testIterations : PasswordHash.standardIterations)
    }

    deinit {
        // Checked first: most sessions never make the folder, and removing is not cheap.
        if picturesAreTemporary, let madePictures, access(madePictures.directory, F_OK) == 0 {
            try? FileManager.default.removeItem(atPath: madePictures.directory)
        }
    }

    /// The dog's first picture through the cache, checked to be a PNG or JPEG.
    func picture(of dog: ShelterDog) throws -> (info: ImageInfo, source: DogPictureCache.Source, bytes: [UInt8])? {
        let url = dog["popfile1"]
        guard !url.isEmpty else { return nil }
        let fetched = try pictures.fetch(url, network: network) { PictureBytes.decodes($0) }
        var info = try ImageHeader.inspect(fetched.bytes)
        info.checksum = Checksum.crc32(fetched.bytes)
        return (info, fetched.source, fetched.bytes)
    }

    func fetch(_ query: AnimalAPI.Query) throws(NetworkError) -> AnimalAPI.Page {
        let page = try AnimalAPI.page(query, network: network)
        for dog in page.dogs where !dog.desertionNo.isEmpty {
            if seen[dog.desertionNo] == nil { seenOrder.append(dog.desertionNo) }
            seen[dog.desertionNo] = dog
        }
        return page
    }

    func dog(_ number: String) throws -> ShelterDog? {
        if let dog = seen[number] { return dog }
        var query = AnimalAPI.Query()
        query.desertionNo = number
        return try fetch(query).dogs.first { $0.desertionNo == number }
    }

    func districts(_ region: Region) throws(NetworkError) -> [PickerItem] {
        try pickers.items(.districts, [QueryItem("upr_cd", region.uprCode)], network: network)
    }

    func shelters(_ region: Region, district: String) throws(NetworkError) -> [PickerItem] {
        try pickers.items(
            .shelters, [QueryItem("upr_cd", region.uprCode), QueryItem("org_cd", district)], network: network)
    }

    func breeds(_ kind: AnimalKind) throws(NetworkError) -> [PickerItem] {
        try pickers.items(.breeds, [QueryItem("up_kind_cd", kind.upkind)], network: network)
    }

    /// The picker list an entity kind is, if it is one.
    private func pickerList(_ kind: EntityKind) -> AnimalAPI.PickerList? {
        if kind == Adoption.district { return .districts }
        if kind == Adoption.shelter { return .shelters }
        if kind == Adoption.breed { return .breeds }
        return nil
    }

    package func names(in list: NameList) -> [String] {
        switch list {
        case PickerLists.districtNames: pickers.seen(.districts).map(\.name)
        case PickerLists.shelterNames: pickers.seen(.shelters).map(\.name)
        case PickerLists.breedNames: pickers.seen(.breeds).map(\.name)
        default: []
        }
    }

    // MARK: the engine's questions

    package var counts: [(EntityKind, Int)] {
        [
            (Adoption.story, community.stories.count), (Adoption.comment, community.comments.count),
            (Adoption.donation, community.donations.count), (Adoption.account, community.accounts.count),
        ]
    }

    package func keys(of kind: EntityKind) -> [EntityKey] {
        if kind == Adoption.story { return community.stories.rows.map { .opaque(String($0.id)) } }
        if kind == Adoption.comment { return community.comments.rows.map { .opaque(String($0.id)) } }
        if kind == Adoption.donation { return community.donations.rows.map { .opaque($0.receipt) } }
        if kind == Adoption.account { return community.accounts.rows.map { .opaque($0.id) } }
        if let list = pickerList(kind) { return pickers.seen(list).map { .opaque($0.code) } }
        return seenOrder.map { .opaque($0) }
    }

    /// Any key may name one: the commands say "no story 9" or "not a desertion number" in
    /// their own words.
    package func contains(_ key: EntityKey, kind: EntityKind) -> Bool { true }

    package func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? { nil }

    package func label(of key: EntityKey, kind: EntityKind) -> String? {
        if kind == Adoption.story { return Int(key.text).flatMap { community.stories[$0]?.title } }
        if let list = pickerList(kind) { return pickers.seen(list).first { $0.code == key.text }?.name }
        return seen[key.text].map { $0["kindFullNm"] }
    }

    package func completionLabel(of key: EntityKey, kind: EntityKind) -> String { label(of: key, kind: kind) ?? "" }

    /// The community (shelter dogs come from the API each time).
    package func dump(into writer: inout DumpWriter) throws { try CommunityDump.write(community, into: &writer) }
}
