"""What the table hears and sees besides the screen: the referee's spoken announcements."""
