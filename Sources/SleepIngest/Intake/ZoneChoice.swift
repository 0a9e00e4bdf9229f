import SleepCore

/// The zone that places a recording's nights, where it came from, and what to tell the user.
///
/// A zone the file states wins over `--tz`: an app export's `timeZone`, ISO 8601 offsets, the
/// offset in an Actiware, ActiLife or GENEActiv header, the zone an ActiGraph device was set up
/// with. The file was written where and when the recording was made; `--tz` is typed once for a
/// whole folder, so it places only the recordings that state nothing. Where `--tz` disagrees with
/// what a file states (a different offset at the recording's start or end), one warning names
/// both. With neither, the clock is UTC and a warning says so.
///
/// The name is always filled: the IANA name where one is known, else the stated offsets
/// (`UTC+01:00`, `UTC+01:00/+02:00`), else `UTC`.
package struct ZoneChoice {
    package var timeline: UTCOffsetTimeline
    package var name: String
    package var source: TimeZoneSource
    package var warning: String?

    /// - Parameters:
    ///   - option: `--tz`, if given.
    ///   - statedName: an IANA zone the file names; `statedNameField` locates it in errors.
    ///   - stated: offsets the file states (ISO offsets, a header's offset), when it names no zone.
    ///   - span: the recording's first and last UTC seconds, where `--tz` is compared with the file.
    ///   - noneWarning: what to say when nothing states a zone.
    package init(path: String, option: String?, statedName: String? = nil, statedNameField: String? = nil, statedNameLine: Int? = nil,
         stated: UTCOffsetTimeline? = nil, span: (first: Int64, last: Int64)?, noneWarning: String) throws(IngestError) {
        var optionTimeline: UTCOffsetTimeline? = nil
        if let option {
            guard let tl = ZoneTimeline.timeline(identifier: option) else {
                throw IngestError(file: path, message: "unknown time zone '\(option)': expected an IANA name such as Europe/Berlin")
            }
            optionTimeline = tl
        }
        if let statedName {
            guard let tl = ZoneTimeline.timeline(identifier: statedName) else {
                throw IngestError(file: path, line: statedNameLine, path: statedNameField,
                                  message: "unknown time zone '\(statedName)' stated in the file: expected an IANA name such as Europe/Berlin")
            }
            self.init(timeline: tl, name: statedName, source: .data, warning: nil)
        } else if let stated {
            self.init(timeline: stated, name: stated.offsetsName(over: span), source: .data, warning: nil)
        } else if let option, let optionTimeline {
            self.init(timeline: optionTimeline, name: option, source: .option, warning: nil)
            return
        } else {
            self.init(timeline: .utc, name: "UTC", source: .assumedUTC, warning: noneWarning)
            return
        }
        if let option, let optionTimeline, option != statedName,
           !Self.agree(optionTimeline, timeline, span: span) {
            warning = "the file states its time zone (\(name)); --tz \(option) disagrees and is not used for this file: a zone the file states wins"
        }
    }

    private init(timeline: UTCOffsetTimeline, name: String, source: TimeZoneSource, warning: String?) {
        self.timeline = timeline; self.name = name; self.source = source; self.warning = warning
    }

    /// Whether two timelines give the same offset at the recording's first and last second
    /// (without a span: at their first offsets).
    static func agree(_ a: UTCOffsetTimeline, _ b: UTCOffsetTimeline, span: (first: Int64, last: Int64)?) -> Bool {
        guard let span else { return a.initialOffsetSeconds == b.initialOffsetSeconds }
        return a.offset(atUTC: span.first) == b.offset(atUTC: span.first) && a.offset(atUTC: span.last) == b.offset(atUTC: span.last)
    }
}
