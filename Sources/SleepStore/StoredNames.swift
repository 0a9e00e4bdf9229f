import GRDB
import SleepCore

// The columns that hold one of a closed set of names (a format, a kind, gravity, where a zone came
// from) are read and written as their SleepCore types. A name this version does not know (a
// database written by a newer sleepsta, or edited by hand) is refused when its row is decoded:
// GRDB's record decoding throws `RowDecodingError.valueMismatch`, which names the column and the
// value, instead of the program stopping on a forced conversion. The raw values are the stored
// names; the types' raw values must therefore never change (a rename needs a migration).

extension SourceFormat: DatabaseValueConvertible {}
extension RecordingKind: DatabaseValueConvertible {}
extension GravityContent: DatabaseValueConvertible {}
extension TimeZoneSource: DatabaseValueConvertible {}
