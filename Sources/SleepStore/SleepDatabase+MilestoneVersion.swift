import GRDB

// Which stored recordings were derived with an older per-epoch milestone than this version
// stores: one version number per recording (migration v16), so that the store asks one generic
// question and the caller decides which methods and formats need the answer.

extension SleepDatabase {
    /// The version of the per-epoch milestone a recording's nights were derived with
    /// (`recordings.milestone_version`). Raise it when the reader starts storing something old
    /// stores lack: their recordings are then read again once by a method that needs it.
    /// 1: the 5-s epochs with GGIR's 2023 non-wear scores, a `.cwa`'s read as GGIR reads its clock
    /// across a change of the clocks (``GGIRClockView``).
    public static let milestoneVersion = 1

    /// Whether a night of the recording `r` has a per-epoch milestone that is older than
    /// ``milestoneVersion``, or lacks the non-wear scores stored since migration v13 (SQL, for a
    /// query over `recordings r`). A recording without that milestone (a phone, an epoch file)
    /// has nothing to re-derive.
    static let milestoneOutdatedSQL = """
        (EXISTS (SELECT 1 FROM epoch_series e JOIN nights n ON n.id = e.night_id
                 WHERE n.recording_id = r.id AND e.ggir_nonwear_score_u8 IS NULL)
         OR (r.milestone_version < \(milestoneVersion)
             AND EXISTS (SELECT 1 FROM nights n JOIN epoch_series e ON e.night_id = n.id WHERE n.recording_id = r.id)))
        """

    /// Whether the recording with this content has a per-epoch milestone older than this version's
    /// (see ``milestoneOutdatedSQL``); false when no recording has it.
    public func milestoneOutdated(contentHash hash: String) throws -> Bool {
        try pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT \(Self.milestoneOutdatedSQL) FROM recordings r WHERE r.content_hash = ?",
                              arguments: [hash]) ?? false
        }
    }
}
