AuditCommand.main()
