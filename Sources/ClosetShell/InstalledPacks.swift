import AdoptionPack
import BoxOfficePack
import ClosetLanguage
import ClosetServing
import MarketPack
import PhotosPack
import WardrobePack

/// The one list of packs this build hosts. A new pack is a folder under `Sources/Packs` (which
/// `Package.swift` makes a target of) and one line here.
package enum InstalledPacks {
    package static let installed: [InstalledPack] = [
        InstalledPack(Wardrobe.pack),
        InstalledPack(Photos.pack, serving: Photos.served),
        InstalledPack(BoxOfficePack.pack, serving: BoxOfficePack.served),
        InstalledPack(Market.pack, serving: Market.served),
        InstalledPack(Adoption.pack, serving: Adoption.served),
    ]

    public static let all: [Pack] = installed.map(\.pack)

    /// The registry every session of this build reads: the shell's dot commands, `export
    /// fixtures` over the APIs served, and every installed pack's commands.
    package static let registry = CommandRegistry(packs: all, engineCommands: hostCommands)

    /// The commands of this build beside the engine's: those that need what it serves.
    package static let hostCommands = [FixturesCommand.spec(apis: { installed.flatMap(\.apis) })]
}

/// A pack as this build hosts it: its declaration (commands, entities, tables), read by every
/// session, and the APIs `closet serve` answers for it.
package struct InstalledPack: Sendable {
    package var pack: Pack
    /// Made when first asked for: only `closet serve` and `export fixtures` answer requests,
    /// and making every API's routes cost each new process 0.1 ms.
    private let makeAPIs: @Sendable () -> [ServedAPI]
    package var apis: [ServedAPI] { makeAPIs() }

    package init(_ pack: Pack, serving apis: @autoclosure @escaping @Sendable () -> [ServedAPI] = []) {
        self.pack = pack
        makeAPIs = apis
    }
}
