"""The Django project of the Forty Thieves patience site."""
