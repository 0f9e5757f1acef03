/// One row of a list the animal API's search filters are picked from: a 시군구, a shelter or a
/// breed, by its code and its name.
struct PickerItem: Sendable, Equatable {
    var code: String
    var name: String
}
