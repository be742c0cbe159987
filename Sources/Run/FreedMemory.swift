import CMalloc

/// Memory the run has freed, given back to the system.
///
/// glibc's `free` returns pages to the system only from the top of the heap. A long run frees its
/// responses, TLS connections and audits in the middle of the heap, between what it keeps (the list,
/// the spool's index), so those pages stayed resident: 8.8 MB of a 100,000-domain run's 80 MB
/// (`malloc_trim` called on the running audit from gdb). The audit queue calls this every
/// `everyDomains` audits; a page used again is faulted in afresh.
enum FreedMemory {
    /// How many audited domains apart the heap is trimmed: at 100 to 400 domains a second, every
    /// few seconds, so the trims (each a walk of the free lists) cost nothing that shows.
    static let everyDomains = 1_000

    /// Gives the heap's free pages back (`malloc_trim(0)`: every arena, not only its top).
    static func returnToSystem() {
        _ = cmalloc_trim()
    }
}
