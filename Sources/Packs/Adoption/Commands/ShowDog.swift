import ClosetCore
import ClosetLanguage

/// `show dog <ref>`: one animal's detail screen, its picture fetched through the dog-picture
/// cache (one that cannot be fetched is a line in its place); one not listed in this session
/// is asked for by its desertion number.
enum ShowDog {
    static let spec = CommandSpec(
        path: ["show", "dog"],
        summary: "show one shelter animal",
        parameters: [Adoption.dogParameter],
        examples: ["show dog 448548202400123", "show dog @1", "show 유기견 $puppy"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let number = try invocation.referenceParameter().text
            let range = invocation.parameters.first?.range
            guard !number.isEmpty, number.count <= 30, number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw Diagnostic.notADesertionNumber(number, at: range)
            }
            guard let dog = try state.dog(number) else { throw Diagnostic.noSuchDog(number, at: invocation.call.range) }
            // A picture that cannot be fetched is one line in its place, never the statement's error.
            let shown: [Picture]
            var picture: (info: ImageInfo, source: DogPictureCache.Source, bytes: [UInt8])?
            do {
                picture = try state.picture(of: dog)
                shown = picture.map { [.bytes($0.bytes, name: FilePath.lastComponent(of: dog["popfile1"]))] } ?? []
            } catch {
                shown = [unavailable(error)]
            }
            let fetched = picture.map { ($0.info, $0.source) }
            return .detail(Adoption.dog, .opaque(dog.desertionNo)) {
                DogRecords.dog.detailRecord(DogRecords.Row(dog: dog, picture: fetched))
            }.showing(Pictures(.single, shown))
        })

    /// The animal's photo as a listing shows it: none when it has none, a line when it cannot be
    /// fetched.
    static func picture(of dog: ShelterDog, _ state: AdoptionState) -> Picture {
        do {
            guard let picture = try state.picture(of: dog) else { return Picture.none }
            return .bytes(picture.bytes, name: FilePath.lastComponent(of: dog["popfile1"]))
        } catch {
            return unavailable(error)
        }
    }

    static func unavailable(_ error: any Error) -> Picture {
        Picture(.unavailable((error as? any LocalizedMessage)?.message ?? "\(error)"))
    }
}
