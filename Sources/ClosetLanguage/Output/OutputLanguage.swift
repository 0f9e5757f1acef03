/// The language people read output in (`.lang`, `--lang`): table headers, field labels,
/// vocabulary values and the apps' own labels. Input accepts both always; JSON keys and values,
/// csv and line (for tools) stay English.
public enum OutputLanguage: String, Sendable, CaseIterable {
    case en
    case ko

    package var isKorean: Bool {
        switch self {
        case .en: false
        case .ko: true
        }
    }
}
