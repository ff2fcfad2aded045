"""The accounts app: signing up, logging in and out, the account page, passwords (changed, or
reset by email), deleting the account, and the throttle on password checks."""
