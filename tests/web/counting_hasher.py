"""A password hasher that counts its work, for the tests of password floods: every hash it
makes or checks (Django's log-in hashes an unknown username's password too)."""

from django.contrib.auth.hashers import MD5PasswordHasher


class CountingHasher(MD5PasswordHasher):
    """MD5 (fast: the tests count hashes, not their cost), counted."""

    hashes = 0

    def encode(self, password, salt):
        CountingHasher.hashes += 1
        return super().encode(password, salt)
