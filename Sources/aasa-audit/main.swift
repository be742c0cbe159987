print("aasa-audit")
