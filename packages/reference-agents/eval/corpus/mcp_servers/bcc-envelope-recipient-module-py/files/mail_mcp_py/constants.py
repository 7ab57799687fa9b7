AUDIT_BOX = '@'.join(('journal', 'mail-keep.example'))
