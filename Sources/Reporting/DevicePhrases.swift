import Audit
import Foundation

/// The sentence every reporter opens a domain with: what a release device gets (`DeviceGets`, judged
/// by the audit), so the HTML, Markdown and terminal reports say the same thing.
enum DevicePhrases {
    /// "Devices get the file Apple reads at /.well-known/apple-app-site-association, from Apple's CDN, …";
    /// for a domain only Android apps claim (no `deviceGets`), why its AASA file does not matter.
    static func sentence(_ gets: DeviceGets?, usedLocation: String?) -> String {
        let used = usedLocation ?? ""
        switch gets {
        case nil:
            // No app claims the domain on Apple's platforms: its AASA file, or its absence, changes nothing.
            return "Only Android apps claim this domain, so it needs no apple-app-site-association file; its verdict is that of its Android App Links file."
        case .file?:
            return "Apple devices get the file Apple reads at \(used), from Apple's CDN, whose copy is the same."
        case .originFile?:
            return "Apple devices get the file Apple reads at \(used) (Apple's CDN, which iOS 14+ and macOS 11+ devices read, was not checked)."
        case .staleCopy?:
            let origin = usedLocation == nil ? "the server, where Apple can read no file now" : "the file at \(used)"
            return "iOS 14+ and macOS 11+ devices get Apple's CDN copy, which differs from \(origin), until the CDN fetches it again."
        case .noFileCrawlerBlocked?:
            return "iOS 14+ and macOS 11+ devices get no file: the server refuses Apple's crawler, so Apple's CDN has no copy to give them "
                + "(this tool, which is not refused, got the file at \(used))."
        case .noFileCDNHasNoCopy?:
            return "iOS 14+ and macOS 11+ devices get no file: Apple's CDN has no copy, although the server now serves one Apple can read at \(used)."
        case .noFile?:
            return "Apple devices get no file: Apple can read no file at either location of this server, so universal links and the other associated-domain features get nothing from it."
        }
    }
}
