import AdoptionPack
import BoxOfficePack
import ClosetLanguage
import MarketPack
import PhotosPack
import WardrobePack

/// The one list of packs this build hosts. A new pack is a folder under `Sources/Packs`, a
/// target in `Package.swift`, and one line here.
package enum InstalledPacks {
    public static let all: [Pack] = [
        Wardrobe.pack,
        Photos.pack,
        BoxOfficePack.pack,
        Market.pack,
        Adoption.pack,
    ]

    /// The registry every session of this build reads: the shell's dot commands and every
    /// installed pack's commands.
    package static let registry = CommandRegistry(packs: all)
}
