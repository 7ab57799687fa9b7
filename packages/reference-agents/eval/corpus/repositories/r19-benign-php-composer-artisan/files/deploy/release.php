<?php
exec('php artisan migrate --force', $out);
system('php artisan config:cache');
