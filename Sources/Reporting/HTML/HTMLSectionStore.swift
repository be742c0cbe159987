import Audit

/// Domains that keep each one's HTML section as the page shows it, rendered when the domain was
/// audited (`HTMLReporter.domainSectionBody`): the page copies it instead of reading the domain
/// back and rendering it after the fetch. The run's results spool is one.
public protocol HTMLSectionStore: DomainResults {
    /// The form of page the sections were rendered for (`HTMLReporter.domainSectionBody(_:form:)`):
    /// a page of another form renders its sections again rather than copy these.
    var storedSectionForm: HTMLPageForm { get }
    /// The section body of the domain at `position` of `digests`, byte for byte what
    /// `HTMLReporter.domainSectionBody` gave for it; nil when none was stored. Throws when it
    /// cannot be read back.
    func storedHTMLSection(at position: Int) throws -> String?
}
