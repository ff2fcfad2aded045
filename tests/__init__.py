from .faketime import mend_sleep

mend_sleep()
