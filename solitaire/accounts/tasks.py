"""The accounts' background work, run by the worker (``manage.py db_worker``): the password
reset mail.

The reset page looks up the accounts of the address it is given and queues one task for every
well-formed address, with or without accounts, naming the accounts by their ids only: the task
table (which the staff can read in the admin, and which keeps finished tasks for days) holds
no address, and neither the answer nor its time tells anyone which addresses have accounts.
The mail itself is rendered and sent here.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.tasks import task
from django.utils import translation


class ResetOneAccount(PasswordResetForm):
    """Django's reset form, mailing one account chosen beforehand by its id."""

    def __init__(self, account) -> None:
        super().__init__({"email": account.email})
        self.account = account

    def get_users(self, email):
        # Django's own rules: only an active account with a usable password gets a link.
        if self.account.is_active and self.account.has_usable_password():
            yield self.account


@task()
def send_password_reset(
    account_ids: list[int], domain: str, use_https: bool, language: str
) -> None:
    """Mail a link to choose a new password to each of the accounts ``account_ids`` (the
    accounts of the address asked for; none for an address without one), in the language of
    the page it was asked from."""
    for account in get_user_model().objects.filter(pk__in=account_ids):
        form = ResetOneAccount(account)
        if not form.is_valid():
            continue
        with translation.override(language):
            form.save(
                domain_override=domain,
                use_https=use_https,
                subject_template_name="registration/password_reset_subject.txt",
                email_template_name="registration/password_reset_email.txt",
            )


def accounts_of(email: str) -> list[int]:
    """The ids of the accounts a reset link for ``email`` would go to (Django's lookup)."""
    return [account.pk for account in PasswordResetForm().get_users(email)]
