import ClosetCore
import ClosetLanguage
import ClosetServing
import ClosetTables

/// 사랑할개, the dog-adoption community, as a pack: the shelter dogs from the public
/// animal-protection API, and the community (stories, comments, likes, donations, profiles)
/// in the store.
public enum Adoption {
    public static let pack = Pack(
        name: "adoption",
        summary: "사랑할개: shelter dogs, adoption stories, comments, likes and donations (유기견, 스토리)",
        vocabularies: [Region.info, AnimalKind.info, ShelterState.info],
        entityKinds: [dog, story, comment, donation, account, district, shelter, breed],
        tables: [
            AnyTableSchema(StoryTable.schema), AnyTableSchema(CommentTable.schema), AnyTableSchema(LikeTable.schema),
            AnyTableSchema(DonationTable.schema), AnyTableSchema(CommunitySequenceTable.schema),
            AnyTableSchema(AccountTables.accounts), AnyTableSchema(AccountTables.refreshTokens),
            AnyTableSchema(AccountTables.tokenKeys),
        ],
        commands: [
            ListDogs.spec, Counts.dogs, ShowDog.spec, ListPickers.districts, ListPickers.shelters, ListPickers.breeds,
            Stories.add, Stories.list, Stories.show, Stories.like,
            Stories.unlike,
            Stories.remove, Stories.edit, Comments.add, Comments.list, Comments.edit, Comments.remove, Comments.donate,
            Comments.listDonations,
            Comments.showDonation,
            Comments.profile, CacheDogs.stats, CacheDogs.limit, CacheDogs.clear, Counts.stories, Counts.comments,
            Counts.donations, Exports.stories, Exports.comments, Exports.donations, Imports.stories, Imports.comments,
            Imports.donations, Accounts.add, Accounts.list, Accounts.count,
            Accounts.export, Accounts.importing,
        ] + ListPickers.counts,
        makeState: { try AdoptionState($0) })

    /// The app's APIs `closet serve` answers from the store (or from recordings).
    public static let served: [ServedAPI] = [CommunityService.api, AnimalService.api]

    package static let dog = DogRecords.dogKind

    package static let story = CommunityRecords.storyKind
    package static let comment = CommunityRecords.commentKind
    package static let donation = CommunityRecords.donationKind
    package static let account = AccountRecords.accountKind
    package static let district = PickerRecords.districtKind
    package static let shelter = PickerRecords.shelterKind
    package static let breed = PickerRecords.breedKind

    static let storyParameter = ParameterSpec(
        "ref", .reference(story, many: false, allowsNone: false, constraint: nil), "a story: its id, @N or $variable")
    static let commentParameter = ParameterSpec(
        "ref", .reference(comment, many: false, allowsNone: false, constraint: nil), "a comment: its id or @N")

    static let donationParameter = ParameterSpec(
        "ref", .reference(donation, many: false, allowsNone: false, constraint: nil),
        "a donation: its receipt (R-000012), @N of list donations or $variable")

    static let dogParameter = ParameterSpec(
        "ref", .reference(dog, many: false, allowsNone: false, constraint: nil),
        "a dog: its desertion number, @N of list dogs, or $variable")

}
