enum CalDAVPlaceholder {}
