/// What `RegistryValidator` checks of commands, for the served APIs: `--log` and the banner
/// name an API by its name, and a request goes to the first API that claims its path, so each
/// name is one pack's.
public enum ServedAPINames {
    /// One line per name two packs claim; empty when every name is one pack's.
    public static func problems(_ packs: [(pack: String, apis: [ServedAPI])]) -> [String] {
        var owners: [String: String] = [:]
        var problems: [String] = []
        for (pack, apis) in packs {
            for api in apis {
                if let earlier = owners[api.name], earlier != pack {
                    problems.append("served API '\(api.name)' is claimed by pack \(earlier) and pack \(pack)")
                } else {
                    owners[api.name] = pack
                }
            }
        }
        return problems
    }
}
