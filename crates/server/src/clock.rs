//! The wall clock as the store keeps it: Unix seconds. A module of its own
//! so that the store and the tables share it without importing each other.

/// Unix seconds now.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
