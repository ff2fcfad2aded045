"""The accounts' background work, run by the worker (``manage.py db_worker``): the password
reset mail.

The reset page queues a task for every well-formed address it is given and answers at once,
whether or not the address belongs to an account: the lookup and the mail happen here, so
neither the answer nor its time tells anyone which addresses have accounts.
"""

from django.contrib.auth.forms import PasswordResetForm
from django.tasks import task
from django.utils import translation


@task()
def send_password_reset(email: str, domain: str, use_https: bool, language: str) -> None:
    """Mail a link to choose a new password to each active account of ``email`` that has a
    usable password (Django's PasswordResetForm does the lookup and the mail), in the
    language of the page it was asked from; nothing if there is none."""
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return
    with translation.override(language):
        form.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name="registration/password_reset_subject.txt",
            email_template_name="registration/password_reset_email.txt",
        )
