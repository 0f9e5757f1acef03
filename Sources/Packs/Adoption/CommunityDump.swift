import ClosetCore
import ClosetLanguage
import ClosetTables
import Foundation

/// The community's part of `.dump`: accounts (their password hashes), stories (pictures
/// copied with `--images`), comments, likes and donations, with their ids, authors and times,
/// so a replay is exact.
enum CommunityDump {
    static func write(_ community: Community, into writer: inout DumpWriter) throws {
        let quote = DumpWriter.quote
        let accounts = community.accounts.rows.sorted { $0.id < $1.id }
        if !accounts.isEmpty {
            writer.line("# accounts keep their salted password hashes (hash=); no password is in this dump")
        }
        for account in accounts {
            writer.statement(
                "add account", AccountRecords.account, account, supplied: ["hash": quote(account.passwordHash)])
        }
        for story in community.stories.rows.sorted(by: { $0.id < $1.id }) {
            var paths: [String] = []
            for (index, picture) in story.pictures.enumerated() {
                let file = "story-\(story.id)-\(index + 1).\(picture.info.format == .png ? "png" : "jpg")"
                let copied = try writer.copyCheckedPicture(
                    named: file, blobName: picture.name, of: "story \(story.id)"
                ) { community.blobs.read(named: picture.name) }
                if let copied { paths.append(copied) }
            }
            let row = CommunityRecords.StoryRow(story: story, likes: 0, liked: false, comments: [])
            let line = DumpWriter.statement(
                "add story", CommunityRecords.story, row,
                supplied: paths.isEmpty ? [:] : ["image": quote(paths.joined(separator: ","))])
            // Pictures left out by --skip-damaged are said above; the story is made without them.
            if !story.pictures.isEmpty, paths.isEmpty, !writer.copiesPictures {
                writer.line(
                    "# story \(story.id) has \(story.pictures.count) \(story.pictures.count == 1 ? "picture" : "pictures"), not copied (use .dump --images <dir>)"
                )
            }
            writer.line(line)
        }
        for comment in community.comments.rows.sorted(by: { $0.id < $1.id }) {
            writer.statement("add comment", CommunityRecords.comment, comment)
        }
        for like in community.likes.rows { writer.line("like story \(like.story) user=\(quote(like.user))") }
        for donation in community.donations.rows.sorted(by: { $0.id < $1.id }) {
            writer.statement("donate", CommunityRecords.donation, donation, supplied: ["receipt": String(donation.id)])
        }
    }
}
