import ClosetCore
import ClosetLanguage
import Foundation

/// The community's part of `.dump`: stories (pictures copied with `--images`), comments,
/// likes and donations, with their ids, authors and times, so a replay is exact.
enum CommunityDump {
    static func write(_ community: Community, into writer: inout DumpWriter) throws {
        let quote = DumpWriter.quote
        for story in community.stories.rows.sorted(by: { $0.id < $1.id }) {
            var line = "add story id=\(story.id) author=\(quote(story.author)) title=\(quote(story.title))"
            line += " content=\(quote(story.content))"
            if let dog = story.dog { line += " dog=\(dog)" }
            var paths: [String] = []
            for (index, picture) in story.pictures.enumerated() {
                let file = "story-\(story.id)-\(index + 1).\(picture.info.format == .png ? "png" : "jpg")"
                if let bytes = community.blobs.read(named: picture.name),
                    let path = try writer.copyPicture(named: file, bytes: bytes)
                {
                    paths.append(path)
                }
            }
            if !paths.isEmpty { line += " image=\(quote(paths.joined(separator: ",")))" }
            line += " created=\(Timestamp.format(story.createdAt))"
            if !story.pictures.isEmpty, paths.isEmpty {
                writer.line(
                    "# story \(story.id) has \(story.pictures.count) \(story.pictures.count == 1 ? "picture" : "pictures"), not copied (use .dump --images <dir>)"
                )
            }
            writer.line(line)
        }
        for comment in community.comments.rows.sorted(by: { $0.id < $1.id }) {
            writer.line(
                "add comment id=\(comment.id) story=\(comment.story) author=\(quote(comment.author)) text=\(quote(comment.text)) created=\(Timestamp.format(comment.createdAt))"
            )
        }
        for like in community.likes.rows { writer.line("like story \(like.story) user=\(quote(like.user))") }
        for donation in community.donations.rows.sorted(by: { $0.id < $1.id }) {
            var line = "donate receipt=\(donation.id) user=\(quote(donation.user)) amount=\(donation.amount)"
            if let dog = donation.dog { line += " dog=\(dog)" }
            if let message = donation.message { line += " message=\(quote(message))" }
            writer.line(line + " created=\(Timestamp.format(donation.createdAt))")
        }
    }
}
