import Foundation

/// The certificate a domain is judged by: that of the location Apple uses, else the first one
/// read. Stored in the result (`DomainResult.certificate`) so that every reporter and the
/// comparison with a baseline show the same one.
public struct JudgedCertificate: Sendable, Equatable, Codable {
    /// The location whose certificate it is ("/.well-known/apple-app-site-association").
    public var location: String
    public var notAfter: Date?
    /// Whole days from the run's start until `notAfter` (negative once expired); nil when `notAfter` is unknown.
    public var daysLeft: Int?
    /// Why Apple refuses the certificate whatever its days left (issued for another name,
    /// self-signed, …); nil when it refuses it for none of these (an expired one says so by its days left).
    public var problem: CertificateProblem?

    public init(location: String, notAfter: Date?, daysLeft: Int?, problem: CertificateProblem? = nil) {
        self.location = location
        self.notAfter = notAfter
        self.daysLeft = daysLeft
        self.problem = problem
    }
}

/// Why Apple refuses a certificate whatever its days left, from its location's findings: what a
/// summary shows in place of the days left, which would read as if all were well.
public enum CertificateProblem: String, Sendable, Equatable, Codable, CaseIterable {
    /// Issued for another name (`tls.hostname-mismatch`).
    case anotherName = "another-name"
    /// Self-signed (`tls.self-signed`).
    case selfSigned = "self-signed"
    /// Issued by an authority Apple does not trust (`tls.untrusted`).
    case untrusted
    /// Its start is still to come (`tls.not-yet-valid`).
    case notYetValid = "not-yet-valid"

    /// The problem one of `findingIDs` (a location's) names, the first in this order.
    public init?(findingIDs: [String]) {
        let byRule: [(String, CertificateProblem)] = [
            (CertificateCheck.hostnameMismatch.id, .anotherName), (CertificateCheck.selfSigned.id, .selfSigned),
            (CertificateCheck.untrusted.id, .untrusted), (CertificateCheck.notYetValid.id, .notYetValid),
        ]
        guard let problem = byRule.first(where: { findingIDs.contains($0.0) })?.1 else { return nil }
        self = problem
    }

    /// The problem in words, for a summary's certificate column ("certificate for another name").
    public var words: String {
        switch self {
        case .anotherName: return "certificate for another name"
        case .selfSigned: return "self-signed certificate"
        case .untrusted: return "untrusted certificate"
        case .notYetValid: return "certificate not valid yet"
        }
    }
}

// The judgements the reporters show and do not make: the headline finding, the certificate and
// the check behind every finding. Made here, once, and stored in the result.
extension DomainResult {
    /// Makes the domain's judgements from what it holds: names the check of every finding that
    /// does not name one (`RuleRegistry.check(ofRule:)`), picks the headline finding and the
    /// certificate. `now` (the run's start), when given, first counts the days left of
    /// certificates that lack them.
    public mutating func judge(at now: Date?) {
        if let now { countDaysLeft(from: now) }
        nameChecks()
        assignRoles(keepingRecorded: false)
        // The part whose verdict is the domain's explains it, the Apple part first.
        let apple = Self.headline(verdict: appleVerdict ?? verdict, usedLocation: usedLocation, findings: findings, locations: locations)
        if let android, isAndroidOnly {
            headline = android.headline
        } else if let android, (appleVerdict ?? verdict) != verdict || apple == nil {
            headline = android.verdict == verdict ? android.headline : apple
        } else {
            headline = apple
        }
        certificate = Self.judgedCertificate(usedLocation: usedLocation, locations: locations)
        // The audit stores what devices get from its DeviceOutcome; only a result without it is read back.
        if isAndroidOnly {
            deviceGets = nil
        } else if deviceGets == nil {
            deviceGets = DeviceGets(usedLocation: usedLocation, cdn: cdn, domainFindingIDs: Set(findings.map(\.id)))
        }
    }

    /// The one finding that best explains a verdict: the first error for a fail (`firstError`), the
    /// first warning (from the location Apple uses, else the domain, else any) for a warn, nothing for a pass.
    ///
    /// A warn domain can hold errors on the location Apple does not use (a .well-known 404 behind
    /// a working fallback); `firstError` would pick that, which misstates the verdict.
    static func headline(verdict: Verdict, usedLocation: String?, findings: [Finding], locations: [LocationResult]) -> Finding? {
        switch verdict {
        case .fail:
            return firstError(usedLocation: usedLocation, findings: findings, locations: locations)
        case .warn:
            let used = locations.first { $0.path == usedLocation }
            return (used?.findings ?? []).first { $0.severity == .warning }
                ?? findings.first { $0.severity == .warning }
                ?? locations.lazy.flatMap(\.findings).first { $0.severity == .warning }
        case .pass:
            return nil
        }
    }

    /// The certificate of the location Apple uses, else the first one read, with its days left.
    static func judgedCertificate(usedLocation: String?, locations: [LocationResult]) -> JudgedCertificate? {
        let used = locations.first { $0.path == usedLocation && $0.tls?.certificate != nil }
        guard let location = used ?? locations.first(where: { $0.tls?.certificate != nil }),
              let certificate = location.tls?.certificate else { return nil }
        return JudgedCertificate(location: location.path, notAfter: certificate.notAfter, daysLeft: certificate.daysLeft,
                                 problem: CertificateProblem(findingIDs: location.findings.map(\.id)))
    }

    /// Counts from `now` the days left of every certificate whose `notAfter` is known but whose days
    /// left are not (results built by hand, reports written before days left were recorded).
    public mutating func countDaysLeft(from now: Date) {
        for index in locations.indices {
            guard let notAfter = locations[index].tls?.certificate?.notAfter,
                  locations[index].tls?.certificate?.daysLeft == nil else { continue }
            locations[index].tls?.certificate?.daysLeft = CertificateCheck.daysLeft(until: notAfter, now: now)
        }
        if let notAfter = certificate?.notAfter, certificate?.daysLeft == nil {
            certificate?.daysLeft = CertificateCheck.daysLeft(until: notAfter, now: now)
        }
    }

    /// Gives every location the role Apple's choice gives it (`LocationChoice.role`), from
    /// `usedLocation` and `usable`: every location of a result has one, and reporters render it.
    /// `keepingRecorded`: keep a role already recorded (a report being read); otherwise every role is
    /// decided again from what the result holds now, like the headline.
    mutating func assignRoles(keepingRecorded: Bool) {
        for index in locations.indices where !keepingRecorded || locations[index].role == nil {
            locations[index].role = LocationChoice.role(path: locations[index].path, usable: locations[index].usable,
                                                        usedLocation: usedLocation)
        }
        if android != nil { android?.location.role = .readByAndroid }
        if var includes = android?.includes {
            for index in includes.indices { includes[index].role = .readByAndroid }
            android?.includes = includes
        }
    }

    /// The role of one of this result's locations (`LocationResult.role`); a location handed in
    /// without one (built apart from the result) gets it by the same rule (`LocationChoice.role`).
    public func role(of location: LocationResult) -> LocationRole {
        location.role ?? LocationChoice.role(path: location.path, usable: location.usable, usedLocation: usedLocation)
    }

    /// Names the check of every finding that does not name one, from its rule (`RuleRegistry.check(ofRule:)`):
    /// findings of reports written before findings recorded their check, and findings built by hand.
    /// The audit's own findings name their check when they are made (`Rule.check`); none is changed here.
    mutating func nameChecks() {
        func named(_ list: inout [Finding]) {
            for index in list.indices where list[index].check == nil {
                list[index].check = RuleRegistry.check(ofRule: list[index].id)
            }
        }
        named(&findings)
        for index in locations.indices { named(&locations[index].findings) }
        if var part = android {
            named(&part.location.findings)
            named(&part.findings)
            if var includes = part.includes {
                for index in includes.indices { named(&includes[index].findings) }
                part.includes = includes
            }
            android = part
        }
    }
}
