from errmods.loop_a import shared_name
