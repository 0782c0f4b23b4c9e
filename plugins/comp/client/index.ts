// Replaced by the full client below; kept minimal so the bundle builds while the server is tested.
export {}
