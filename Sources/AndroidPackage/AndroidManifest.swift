/// What an APK's `AndroidManifest.xml` says about App Links: the package, its SDK levels, and every
/// intent filter of an activity (or activity alias) that names a web scheme or host.
public struct AndroidManifest: Sendable, Equatable, Codable {
    /// The application id (`<manifest package="…">`), what `assetlinks.json` names as `package_name`.
    public var packageName: String
    /// `<uses-sdk android:minSdkVersion>`, nil when absent or not a number.
    public var minSdkVersion: Int?
    /// `<uses-sdk android:targetSdkVersion>`, nil when absent or not a number (Android then takes minSdkVersion, and 1 without it).
    public var targetSdkVersion: Int?
    /// The intent filters of activities and activity aliases, in manifest order.
    public var intentFilters: [IntentFilter]
    /// What the reader could not resolve and so left out, one sentence each (a host given as a
    /// resource reference: resolving it needs resources.arsc, which this reader does not read).
    public var unresolved: [String]

    /// One `<intent-filter>` of an activity.
    public struct IntentFilter: Sendable, Equatable, Codable {
        /// The activity's `android:name` (`.MainActivity`).
        public var component: String
        /// `android:autoVerify` is true.
        public var autoVerify: Bool
        public var actions: [String]
        public var categories: [String]
        /// Every `android:scheme` of its `<data>` elements.
        public var schemes: [String]
        /// Every `android:host` of its `<data>` elements, as written (`*.example.com` included).
        public var hosts: [String]
        /// The line of the `<intent-filter>` in the source manifest, as aapt recorded it.
        public var line: UInt32
    }
}

/// The framework attributes the manifest reader needs, by resource id. Android reads `android:`
/// attributes by id, not by their spelled name; the ids are fixed by AOSP's
/// frameworks/base/core/res/res/values/public.xml and published as `android.R.attr` constants.
enum AndroidAttribute {
    static let name: UInt32 = 0x0101_0003            // android.R.attr.name = 16842755
    static let scheme: UInt32 = 0x0101_0027          // android.R.attr.scheme = 16842791
    static let host: UInt32 = 0x0101_0028            // android.R.attr.host = 16842792
    static let minSdkVersion: UInt32 = 0x0101_020c   // android.R.attr.minSdkVersion = 16843276
    static let targetSdkVersion: UInt32 = 0x0101_0270 // android.R.attr.targetSdkVersion = 16843376
    static let autoVerify: UInt32 = 0x0101_04ee      // android.R.attr.autoVerify = 16844014 (API 23)
}

extension AndroidManifest {
    /// The manifest in `nodes` (from `BinaryXML.nodes`), called `source` in errors.
    public static func read(_ nodes: [BinaryXMLNode], source: String) throws(APKReadError) -> AndroidManifest {
        var manifest = AndroidManifest(packageName: "", minSdkVersion: nil, targetSdkVersion: nil, intentFilters: [], unresolved: [])
        var path: [String] = []
        var component = ""
        var filter: IntentFilter?
        var sawManifest = false
        for node in nodes {
            switch node {
            case .start(let name, let attributes, let line):
                path.append(name)
                let parent = path.dropLast().last
                switch (name, parent, path.count) {
                case ("manifest", nil, 1):
                    sawManifest = true
                    // `package` has no namespace and no resource id: Android reads it by name.
                    if let attribute = attributes.first(where: { $0.name == "package" && $0.namespace == nil }), case .string(let text) = attribute.value {
                        manifest.packageName = text
                    }
                case ("uses-sdk", "manifest", 2):
                    manifest.minSdkVersion = sdkLevel(attributes, AndroidAttribute.minSdkVersion) ?? manifest.minSdkVersion
                    manifest.targetSdkVersion = sdkLevel(attributes, AndroidAttribute.targetSdkVersion) ?? manifest.targetSdkVersion
                case ("activity", "application", 3), ("activity-alias", "application", 3):
                    component = stringValue(attributes, AndroidAttribute.name) ?? ""
                case ("intent-filter", "activity", 4), ("intent-filter", "activity-alias", 4):
                    var autoVerify = false
                    if let attribute = attributes.first(where: { $0.resourceID == AndroidAttribute.autoVerify }) {
                        switch attribute.value {
                        case .boolean(let value): autoVerify = value
                        case .string(let text): autoVerify = text == "true"
                        case .reference(let id):
                            manifest.unresolved.append("android:autoVerify of an intent filter of \(component) (line \(line)) is the resource reference 0x\(BinaryXML.hex(id)), read as false")
                        default: break
                        }
                    }
                    filter = IntentFilter(component: component, autoVerify: autoVerify, actions: [], categories: [], schemes: [], hosts: [], line: line)
                case ("action", "intent-filter", 5):
                    if let value = stringValue(attributes, AndroidAttribute.name) { filter?.actions.append(value) }
                case ("category", "intent-filter", 5):
                    if let value = stringValue(attributes, AndroidAttribute.name) { filter?.categories.append(value) }
                case ("data", "intent-filter", 5):
                    if let value = stringValue(attributes, AndroidAttribute.scheme) { filter?.schemes.append(value) }
                    if let attribute = attributes.first(where: { $0.resourceID == AndroidAttribute.host }) {
                        switch attribute.value {
                        case .string(let host): filter?.hosts.append(host)
                        case .reference(let id):
                            manifest.unresolved.append("android:host of an intent filter of \(component) (line \(line)) is the resource reference 0x\(BinaryXML.hex(id)): resolving it needs resources.arsc, which is not read, so that host is not audited")
                        default: break
                        }
                    }
                default:
                    break
                }
            case .end(let name):
                if name == "intent-filter", path.count == 4, let done = filter {
                    manifest.intentFilters.append(done)
                    filter = nil
                }
                path.removeLast()
            }
        }
        guard sawManifest else {
            throw APKReadError(source: source, code: .incompleteManifest, reason: "has no <manifest> element at its root")
        }
        guard !manifest.packageName.isEmpty else {
            throw APKReadError(source: source, code: .incompleteManifest, reason: "has no package name (<manifest package=\"…\">)")
        }
        return manifest
    }

    private static func stringValue(_ attributes: [BinaryXMLAttribute], _ id: UInt32) -> String? {
        guard let attribute = attributes.first(where: { $0.resourceID == id }), case .string(let text) = attribute.value else { return nil }
        return text
    }

    /// An SDK level given as a number (or as a number in a string, as aapt may keep it).
    private static func sdkLevel(_ attributes: [BinaryXMLAttribute], _ id: UInt32) -> Int? {
        guard let attribute = attributes.first(where: { $0.resourceID == id }) else { return nil }
        switch attribute.value {
        case .integer(let value): return Int(value)
        case .string(let text): return Int(text)
        default: return nil
        }
    }
}
