"""Reset mails queued before they named accounts by id: the ones still waiting are given the
ids of their address's accounts, and the finished ones, whose arguments are all they still
hold, are deleted. Afterwards no task row keeps an email address."""

from django.db import migrations

TASK = "solitaire.accounts.tasks.send_password_reset"
WAITING = ("READY", "RUNNING")


def forget_addresses(apps, schema_editor):
    Task = apps.get_model("django_tasks_database", "DBTaskResult")
    User = apps.get_model("auth", "User")
    for task in Task.objects.filter(task_path=TASK):
        kwargs = task.args_kwargs.get("kwargs", {})
        if "email" not in kwargs:
            continue
        if task.status not in WAITING:
            task.delete()
            continue
        email = kwargs.pop("email")
        accounts = User.objects.filter(email__iexact=email, is_active=True)
        kwargs["account_ids"] = list(accounts.values_list("pk", flat=True))
        task.args_kwargs = {"args": [], "kwargs": kwargs}
        task.save(update_fields=["args_kwargs"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_looks"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(forget_addresses, migrations.RunPython.noop)]
